"""The person at the computer, for the portal tests: clicks and keys through a Mutter RemoteDesktop session of its
own (a separate client, independent of the host under test), e.g. to answer a portal's dialog.
Runs under the system Python (python3-gi), inside scripts/with-mutter:

    computer_user.py click X Y [click X Y ...]    left clicks at monitor pixels of the first monitor
"""

import sys

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

RD, SC = "org.gnome.Mutter.RemoteDesktop", "org.gnome.Mutter.ScreenCast"
BTN_LEFT = 0x110


def call(bus, name, path, interface, method, args=None):
    return bus.call_sync(name, path, interface, method, args, None, 0, 5000, None).unpack()


def main(steps):
    bus = Gio.bus_get_sync(Gio.BusType.SESSION)
    session = call(bus, RD, "/org/gnome/Mutter/RemoteDesktop", RD, "CreateSession")[0]
    session_id = bus.call_sync(RD, session, "org.freedesktop.DBus.Properties", "Get",
                               GLib.Variant("(ss)", (RD + ".Session", "SessionId")), None, 0, 5000, None).unpack()[0]
    cast = call(bus, SC, "/org/gnome/Mutter/ScreenCast", SC, "CreateSession",
                GLib.Variant("(a{sv})", ({"remote-desktop-session-id": GLib.Variant("s", session_id)},)))[0]
    stream = call(bus, SC, cast, SC + ".Session", "RecordMonitor",
                  GLib.Variant("(sa{sv})", ("", {"cursor-mode": GLib.Variant("u", 0)})))[0]
    call(bus, RD, session, RD + ".Session", "Start")
    loop = GLib.MainLoop()
    try:
        while steps:
            kind, x, y, *steps = steps
            assert kind == "click", kind
            for method, args in [("NotifyPointerMotionAbsolute", GLib.Variant("(sdd)", (stream, float(x), float(y)))),
                                 ("NotifyPointerButton", GLib.Variant("(ib)", (BTN_LEFT, True))),
                                 ("NotifyPointerButton", GLib.Variant("(ib)", (BTN_LEFT, False)))]:
                call(bus, RD, session, RD + ".Session", method, args)
                # A moment between events, as a hand gives: GTK sees the pointer arrive before the press.
                GLib.timeout_add(150, loop.quit)
                loop.run()
    finally:
        call(bus, RD, session, RD + ".Session", "Stop")


if __name__ == "__main__":
    main(sys.argv[1:])
