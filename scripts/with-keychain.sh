#!/usr/bin/env bash
# Runs a command with a real, unlocked OS keychain: on Linux a private D-Bus session with gnome-keyring's
# Secret Service unlocked by a throwaway password, its keyring files in a throwaway XDG_DATA_HOME. Elsewhere
# (macOS, Windows: the OS keychain is always there) or without dbus-run-session it runs the command as it is,
# and the keychain tests then fail saying what is missing.
set -euo pipefail

if [ "$(uname -s)" != "Linux" ] || [ "${PMDESK_KEYCHAIN_SESSION:-}" = "1" ]; then
  exec "$@"
fi
if ! command -v dbus-run-session >/dev/null 2>&1 || ! command -v gnome-keyring-daemon >/dev/null 2>&1; then
  echo "with-keychain: dbus-run-session or gnome-keyring-daemon is missing (apt: dbus dbus-x11 gnome-keyring); the keychain tests will fail." >&2
  exec "$@"
fi

data_home="$(mktemp -d "${TMPDIR:-/tmp}/pmdesk-keyring.XXXXXX")"
trap 'rm -rf "$data_home"' EXIT
export XDG_DATA_HOME="$data_home" PMDESK_KEYCHAIN_SESSION=1
# dbus-run-session ends the bus (and with it the keyring daemon) when the command exits.
dbus-run-session -- bash -c 'eval "$(printf pmdesk-test | gnome-keyring-daemon --unlock --components=secrets)"; export GNOME_KEYRING_CONTROL; exec "$@"' with-keychain "$@" \
  2> >(grep -v -e 'Failed to set fd limit' -e 'Activating service name' -e 'Successfully activated service' >&2)
