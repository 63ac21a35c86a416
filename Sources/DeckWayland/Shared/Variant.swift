import CGio

/// One GVariant reference, released in `deinit` (DESIGN.md#c-handles). Immutable, so any thread may read it.
final class Variant: @unchecked Sendable {
    let raw: OpaquePointer

    /// Takes over a full (non-floating) reference, as D-Bus replies carry.
    init(owning raw: OpaquePointer) { self.raw = raw }

    deinit { g_variant_unref(raw) }

    /// The `index`th child of a tuple or container.
    func child(_ index: Int) -> Variant { Variant(owning: g_variant_get_child_value(raw, gsize(index))) }

    /// The text of a string or object-path value.
    var string: String { String(cString: g_variant_get_string(raw, nil)) }

    var uint32: UInt32 { g_variant_get_uint32(raw) }

    var boolean: Bool { g_variant_get_boolean(raw) != 0 }

    /// The value inside a `v` (variant) value.
    var unboxed: Variant { Variant(owning: g_variant_get_variant(raw)) }

    /// Whether its type is `type` (a GVariant type string such as "(o)").
    func isOfType(_ type: String) -> Bool {
        guard let wanted = g_variant_type_new(type) else { return false }
        defer { g_variant_type_free(wanted) }
        return g_variant_is_of_type(raw, wanted) != 0
    }
}
