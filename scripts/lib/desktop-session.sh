# Sourced by scripts/with-mutter, with-sway and with-pipewire: the part of a private desktop session they share.
# A work folder with a runtime folder (run/) and a home (home/) inside, a private session bus, PipeWire and
# WirePlumber, the servers started in the background with their output in work/NAME.log, each waited for by its
# socket, all stopped by PID in reverse order when the script exits, and the command run in the background so
# that a SIGTERM to the script stops the servers at once instead of after the command.
#
# Before sourcing, the script sets:
#   session_name   its name for messages ("with-mutter")
#   session_tail   how many lines of each log `fail` shows ("" = the whole log)
# Then it calls, in this order:
#   session_require TOOL...            every tool present, else exit 1 naming it
#   session_begin KIND [DIR]           work=DIR (kept afterwards) or a new mktemp folder touchdeck-KIND.XXXXXX
#                                      (removed afterwards); sets run, bus; installs the traps
#   session_env [NAME=VALUE...]        server_env: `env -i` with only PATH, HOME, the XDG folders inside $work and
#                                      the private bus (plus the extras given), so nothing of the caller's desktop
#                                      (DISPLAY, PIPEWIRE_*, PULSE_*) reaches a server
#   session_start_pipewire             dbus-daemon, pipewire, wireplumber (all under server_env)
#   start NAME SOCKET COMMAND...       any further server, run as given (prefix "${server_env[@]}" where wanted)
#   session_run COMMAND...             exports are the caller's; runs the command, exits with its status
# shellcheck shell=bash

session_require() {
    local tool
    for tool in "$@"; do
        command -v "$tool" >/dev/null ||
            { echo "$session_name: $tool is missing: run scripts/bootstrap test" >&2; exit 1; }
    done
}

session_begin() { # kind, folder to keep (or nothing)
    session_keep=${2:-}
    if [ -n "$session_keep" ]; then
        work=$session_keep
        mkdir -p "$work"
    else
        work=$(mktemp -d "${TMPDIR:-/tmp}/touchdeck-$1.XXXXXX")
    fi
    run="$work/run"
    bus="unix:path=$run/bus"
    pids=()
    command_pid=""
    trap session_cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    # A restart in a kept folder must not find the last run's sockets (dbus-daemon refuses a used path).
    rm -rf "$run"
    mkdir -p "$run" "$work/home"
    chmod 700 "$run"
}

session_cleanup() {
    [ -n "$command_pid" ] && kill "$command_pid" 2>/dev/null
    # Newest first: the compositor, pipewire-pulse and wireplumber leave before the pipewire they talk to, and
    # the bus last.
    local i
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null; done
    wait 2>/dev/null
    [ -n "$session_keep" ] || rm -rf "$work"
}

fail() {
    echo "$session_name: $1; the servers said:" >&2
    local log
    for log in "$work"/*.log; do
        echo "--- $(basename "$log")" >&2
        if [ -n "$session_tail" ]; then tail -n "$session_tail" "$log" >&2; else cat "$log" >&2; fi
    done
    exit 1
}

session_env() { # extra NAME=VALUE...
    server_env=(env -i PATH=/usr/bin:/bin HOME="$work/home" XDG_RUNTIME_DIR="$run"
        XDG_CONFIG_HOME="$work/home/.config" XDG_STATE_HOME="$work/home/.local/state"
        XDG_DATA_HOME="$work/home/.local/share" DBUS_SESSION_BUS_ADDRESS="$bus" "$@")
}

start() { # name, socket to wait for (or ""), command...
    local name=$1 wait_for=$2
    shift 2
    "$@" >"$work/$name.log" 2>&1 &
    pids+=($!)
    [ -n "$wait_for" ] || return 0
    for _ in $(seq 200); do
        [ -S "$wait_for" ] && return 0
        kill -0 "${pids[-1]}" 2>/dev/null || break
        sleep 0.05
    done
    fail "$name did not open $wait_for"
}

# WirePlumber exits without a session bus; pipewire-pulse and the screen-cast streams need WirePlumber.
session_start_pipewire() {
    start dbus "$run/bus" "${server_env[@]}" dbus-daemon --session --nofork --nopidfile --address="$bus"
    start pipewire "$run/pipewire-0" "${server_env[@]}" pipewire
    start wireplumber "" "${server_env[@]}" wireplumber
    wireplumber_pid=${pids[-1]}
}

session_run() { # command...
    "$@" <&0 &
    command_pid=$!
    wait "$command_pid"
    local status=$?
    command_pid=""
    exit "$status"
}
