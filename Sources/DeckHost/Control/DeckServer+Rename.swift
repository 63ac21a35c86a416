import DeckKit
import Foundation

extension DeckServer {
    /// `touchdeck devices rename OLD NEW`: the device named (or id-prefixed) `old` takes `new`, cleaned like
    /// every name a device gives; refused when the cleaned name is empty or another device has it.
    func rename(_ old: String?, to new: String?) -> ControlResponse {
        guard let new else { return .failure("say the new name") }
        switch oneDevice(old) {
        case .failure(let failure): return .failure(failure.text)
        case .success(let record):
            let stored: String
            do {
                stored = try devices.rename(id: record.id, to: new)
            } catch let refusal as RenameRefusal {
                return .failure(refusal.description)
            } catch {
                return .failure("could not save: \(error)")
            }
            log.notice("renamed a device", ["device.name": stored, "device.oldName": record.name])
            var response = listing()
            response.name = stored
            return response
        }
    }
}
