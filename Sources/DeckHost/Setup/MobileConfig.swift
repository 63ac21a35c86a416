import Foundation

/// The iOS/iPadOS configuration profile that installs the host's local CA (DESIGN.md#local-ca).
///
/// iPad Safari refuses `wss://` to a certificate that was only clicked through, so a device trusts the CA
/// once: install this profile, then enable it under Settings → General → About → Certificate Trust Settings.
public enum MobileConfig {
    /// The profile for a CA certificate in DER form. The UUIDs derive from the certificate, so downloading
    /// the profile again replaces the installed one instead of adding a second. The descriptions carry the
    /// SHA-256 `fingerprint`, which iOS shows before installing, so the user can compare it with the host's.
    public static func profile(caDER: Data, hostName: String, fingerprint: String) -> Data {
        let name = escape(hostName)
        let check = "SHA-256 fingerprint: \(escape(fingerprint))"
        let scope = "limited to its own names and local addresses"
        let uuid = stableUUID(caDER)
        let payloadUUID = stableUUID(caDER + Data("payload".utf8))
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
              <key>PayloadContent</key>
              <array>
                <dict>
                  <key>PayloadCertificateFileName</key><string>touchdeck-ca.cer</string>
                  <key>PayloadContent</key><data>\(caDER.base64EncodedString())</data>
                  <key>PayloadDescription</key><string>Lets this device trust the TouchDeck host on \(name). \(check)</string>
                  <key>PayloadDisplayName</key><string>TouchDeck CA (\(name))</string>
                  <key>PayloadIdentifier</key><string>app.touchdeck.ca.\(payloadUUID)</string>
                  <key>PayloadType</key><string>com.apple.security.root</string>
                  <key>PayloadUUID</key><string>\(payloadUUID)</string>
                  <key>PayloadVersion</key><integer>1</integer>
                </dict>
              </array>
              <key>PayloadDescription</key><string>Trust for the TouchDeck host on \(name), \(scope). \(check)</string>
              <key>PayloadDisplayName</key><string>TouchDeck on \(name)</string>
              <key>PayloadIdentifier</key><string>app.touchdeck.profile.\(uuid)</string>
              <key>PayloadRemovalDisallowed</key><false/>
              <key>PayloadType</key><string>Configuration</string>
              <key>PayloadUUID</key><string>\(uuid)</string>
              <key>PayloadVersion</key><integer>1</integer>
            </dict>
            </plist>

            """
        return Data(xml.utf8)
    }

    /// A version-4-shaped UUID made from the bytes (FNV-1a, twice), stable for the same input.
    static func stableUUID(_ bytes: Data) -> String {
        func fnv(_ seed: UInt64) -> UInt64 {
            bytes.reduce(seed) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        }
        var raw = [UInt8](repeating: 0, count: 16)
        withUnsafeBytes(of: fnv(0xcbf2_9ce4_8422_2325).bigEndian) { raw.replaceSubrange(0..<8, with: $0) }
        withUnsafeBytes(of: fnv(0x8422_2325_cbf2_9ce4).bigEndian) { raw.replaceSubrange(8..<16, with: $0) }
        raw[6] = (raw[6] & 0x0F) | 0x40
        raw[8] = (raw[8] & 0x3F) | 0x80
        let hex = raw.map { String(format: "%02X", $0) }.joined()
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(
                hex[
                    hex.index(
                        hex.startIndex, offsetBy: range.lowerBound)..<hex.index(
                            hex.startIndex, offsetBy: range.upperBound)])
        }
        return parts.joined(separator: "-")
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
