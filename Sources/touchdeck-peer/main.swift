// The Swift side of the cross-language crypto tests; filled in by the pairing work.
print("touchdeck-peer")
