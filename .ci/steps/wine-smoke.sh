#!/usr/bin/env bash
# Smoke test of the Windows build under Wine (run from the repo root after `npm run build:all`).
# Debian's Wine 8 lacks bcryptprimitives.dll (Bun's exe imports ProcessPrng from it): a stand-in is built with mingw.
set -euo pipefail
cd "$(dirname "$0")/../.."

EXE=dist/aioson-windows-x64.exe
BUN=node_modules/.bin/bun
[ -f "$EXE" ] || "$BUN" scripts/build.ts --target=windows-x64

need=()
command -v wine >/dev/null 2>&1 || need+=(wine wine64)
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || need+=(gcc-mingw-w64-x86-64)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/aioson-wine-XXXXXX")"
export WINEPREFIX="$WORK/prefix" WINEDEBUG=-all
cleanup() { wineserver -k >/dev/null 2>&1 || true; rm -rf "$WORK"; }
trap cleanup EXIT

mkdir -p "$WORK/bin" "$WORK/probe" "$WORK/driver"
CC=x86_64-w64-mingw32-gcc
$CC -O2 -shared -o "$WORK/bin/bcryptprimitives.dll" scripts/wine/bcryptprimitives.c -ladvapi32
$CC -O2 -o "$WORK/launch.exe" scripts/wine/launch.c
$CC -O2 -o "$WORK/probe/aioson.exe" scripts/wine/probe.c
$CC -O2 -o "$WORK/planted.exe" scripts/wine/planted.c
cp "$EXE" "$WORK/bin/aioson.exe"
# The OpenCode plugin runs inside OpenCode's Bun: a Windows Bun program loads it (its own copy of the stand-in DLL).
"$BUN" build --compile --target=bun-windows-x64 --no-compile-autoload-dotenv --no-compile-autoload-bunfig \
  scripts/wine/opencode-driver.ts --outfile="$WORK/driver/opencode-driver.exe" >/dev/null
cp "$WORK/bin/bcryptprimitives.dll" "$WORK/driver/"

wineboot -i >/dev/null 2>&1 || true
"$BUN" scripts/wine/smoke.ts "$WORK"
