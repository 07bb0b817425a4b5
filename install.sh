#!/bin/sh
# aioson installer (POSIX sh).
#
#   curl -fsSL <base-url>/install.sh | sh      download the binary for this machine
#   sh install.sh                              from a source checkout: build if needed, then install
#
# Environment (all optional):
#   AIOSON_INSTALL_DIR  where to put `aioson` (default: $HOME/.local/bin)
#   AIOSON_DIST         a local folder of built binaries + SHA256SUMS (`npm run build:all` output)
#   AIOSON_BASE_URL     where release files are downloaded from (a folder URL holding SHA256SUMS and
#                       aioson-<os>-<arch>[-musl]); default: the project's GitHub releases
#   AIOSON_VERSION      pin a release (e.g. 0.2.0); the installed binary must report this version
#   AIOSON_DEMO         1 = show aioson at work after installing, 0 = don't (default: 1 from a checkout)
#
# Source order: AIOSON_DIST, then AIOSON_BASE_URL, then the checkout this script sits in, then the default URL.
# The binary is verified against SHA256SUMS, test-run, and only then moved into place with one rename:
# a failed run never leaves a partial or unverified `aioson` behind.

set -eu

DEFAULT_RELEASES="https://github.com/jaimevalasek/aioson/releases"

say() { printf '%s\n' "$*"; }
die() {
  printf 'aioson install: error: %s\n' "$1" >&2
  shift
  for line in "$@"; do printf '  %s\n' "$line" >&2; done
  exit 1
}

WORK=""
STAGED=""
INSTALL_DIR=""
CREATED_TOP=""
cleanup() {
  if [ -n "$STAGED" ]; then rm -f "$STAGED"; fi
  if [ -n "$WORK" ]; then rm -rf "$WORK"; fi
  # A failed first install takes back the (still empty) folders it made: the install folder and each parent that
  # did not exist before (~/.local as well as ~/.local/bin), deepest first, never one it found.
  if [ -n "$CREATED_TOP" ]; then
    dir=$INSTALL_DIR
    while rmdir "$dir" 2>/dev/null && [ "$dir" != "$CREATED_TOP" ]; do dir=$(dirname "$dir"); done
  fi
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

# --- platform -------------------------------------------------------------------------------------

detect_os() {
  kernel=$(uname -s 2>/dev/null || echo unknown)
  case "$kernel" in
    Linux) echo linux ;;
    Darwin) echo darwin ;;
    MINGW* | MSYS* | CYGWIN* | Windows_NT)
      die "this is Windows ($kernel): use install.ps1 instead." \
        "In PowerShell: irm <base-url>/install.ps1 | iex   (or, from a checkout: powershell -File install.ps1)" ;;
    *) die "unsupported platform: operating system '$kernel'." \
      "aioson is built for Linux (glibc or musl), macOS and Windows, on x64 and arm64." ;;
  esac
}

detect_arch() {
  machine=$(uname -m 2>/dev/null || echo unknown)
  case "$machine" in
    x86_64 | amd64 | x64) arch=x64 ;;
    aarch64 | arm64 | armv8*) arch=arm64 ;;
    *) die "unsupported platform: CPU '$machine' on $1." \
      "aioson is built for x64 (x86_64) and arm64 (aarch64) only." ;;
  esac
  # An x64 shell under Rosetta 2 on Apple silicon: the native arm64 build is the right one.
  if [ "$1" = darwin ] && [ "$arch" = x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then
    arch=arm64
  fi
  echo "$arch"
}

# glibc or musl: what `ldd` says first (Alpine's ldd is musl's), then which dynamic loader exists.
detect_libc() {
  ldd_out=$(ldd --version 2>&1 || true)
  case "$ldd_out" in
    *musl*) echo musl; return ;;
    *GLIBC* | *"GNU libc"* | *"GNU C Library"*) echo glibc; return ;;
  esac
  for loader in /lib64/ld-linux-x86-64.so.2 /lib/ld-linux-aarch64.so.1 /lib/ld-linux-x86-64.so.2; do
    if [ -e "$loader" ]; then echo glibc; return; fi
  done
  for loader in /lib/ld-musl-*.so.1; do
    if [ -e "$loader" ]; then echo musl; return; fi
  done
  echo glibc
}

# --- tools ----------------------------------------------------------------------------------------

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d ' ' -f 1
  else
    die "no SHA-256 tool found: install sha256sum (coreutils) or shasum (perl)." \
      "aioson refuses to install a binary it cannot verify."
  fi
}

# fetch URL FILE: the download tool is chosen once, before anything is fetched. An https address is never given up
# for a plain http one on a redirect (a network in the middle could then hand over both the binary and the
# SHA256SUMS it is checked against): curl refuses such a redirect itself; wget has no switch for it outside recursive
# mode, so the redirects it followed are read from its response headers and any to http:// fails the download. A
# plain http address (a local mirror) is the user's explicit choice and may stay on http.
fetch() {
  case "$1" in
    https://*) protocols='=https' ;;
    *) protocols='=https,http' ;;
  esac
  case "$DOWNLOADER" in
    curl) curl --proto "$protocols" --proto-redir "$protocols" -fsSL --retry 2 -o "$2" "$1" ;;
    wget)
      wget -S -O "$2" "$1" 2>"$WORK/wget.log" || return 1
      case "$1" in
        https://*)
          if grep -qi '^ *location: *http://' "$WORK/wget.log"; then
            rm -f "$2"
            printf 'aioson install: %s redirected to a plain http:// address: refused\n' "$1" >&2
            return 1
          fi ;;
      esac ;;
  esac
}

pick_downloader() {
  if command -v curl >/dev/null 2>&1; then
    DOWNLOADER=curl
  elif command -v wget >/dev/null 2>&1; then
    DOWNLOADER=wget
  else
    die "no download tool found: install curl or wget (e.g. apt-get install curl)," \
      "or install from a local folder of built binaries: AIOSON_DIST=/path/to/dist sh install.sh"
  fi
}

# expected_sum SUMS NAME: the hash listed for NAME (`<hash>  <name>` or `<hash> *<name>`), or nothing.
expected_sum() {
  awk -v name="$2" '$2 == name || $2 == "*" name { print $1; exit }' "$1"
}

# --- source checkout ------------------------------------------------------------------------------

# The folder of this script when it is run as a file from an aioson checkout (never when piped into sh).
checkout_dir() {
  case "$0" in
    *install.sh) ;;
    *) return 0 ;;
  esac
  [ -f "$0" ] || return 0
  dir=$(cd "$(dirname "$0")" && pwd -P)
  if [ -f "$dir/package.json" ] && [ -f "$dir/src/cli.ts" ] && [ -f "$dir/scripts/build.ts" ]; then
    echo "$dir"
  fi
}

# Builds dist/aioson when it is missing or older than the sources it is built from.
build_from_checkout() {
  checkout=$1
  binary="$checkout/dist/aioson"
  if [ -x "$binary" ] && [ -z "$(cd "$checkout" && find src scripts/build.ts package.json package-lock.json -type f -newer dist/aioson 2>/dev/null | head -n 1)" ]; then
    say "Using the existing build: $binary"
    return 0
  fi
  command -v npm >/dev/null 2>&1 || die "building aioson from source needs Node.js and npm (none found on PATH)." \
    "Install Node.js (which brings npm), or point AIOSON_DIST at a folder of built binaries."
  if [ ! -d "$checkout/node_modules" ]; then
    say "Installing build dependencies (npm ci)..."
    (cd "$checkout" && npm_config_update_notifier=false npm ci --no-audit --no-fund) || die "npm ci failed in $checkout (see the output above)."
  fi
  say "Building aioson for this machine (npm run build)..."
  (cd "$checkout" && npm_config_update_notifier=false npm run build) || die "npm run build failed in $checkout (see the output above)."
  [ -x "$binary" ] || die "the build finished but $binary is missing."
}

# --- install --------------------------------------------------------------------------------------

# run_failure_hint OUTPUT: the likely cause of a test-run that failed, from what the binary (or the loader) said.
run_failure_hint() {
  case "$1" in
    # Bun's musl builds link libstdc++ dynamically; Alpine does not install it by default.
    *libstdc++* | *libgcc*) echo "install the C++ runtime first (on Alpine: apk add libstdc++ libgcc)" ;;
    *"Exec format error"* | *"cannot execute binary file"* | *"not found"*)
      echo "the binary is not for this machine ($os/$arch$suffix detected): check uname -m and the libc, or set AIOSON_DIST to a folder with the right build" ;;
    *) echo "(a libc other than the one detected, or an x64 CPU without SSE4.2, can cause this)" ;;
  esac
}

# The rc file is shown to the user as written (~/.bashrc), not expanded.
# shellcheck disable=SC2088
path_hint() {
  case "$(basename "${SHELL:-sh}")" in
    zsh) rc="~/.zshrc" ;;
    bash) rc="~/.bashrc" ;;
    fish)
      say ""
      say "$1 is not on your PATH. Add it with:"
      say "  fish_add_path $1"
      return ;;
    *) rc="~/.profile" ;;
  esac
  say ""
  say "$1 is not on your PATH. Add this line to $rc (then open a new terminal):"
  say "  export PATH=\"$1:\$PATH\""
}

show_demo() {
  demo=$(mktemp -d 2>/dev/null || mktemp -d -t aioson-demo)
  mkdir -p "$demo/.aioson"
  printf '# aioson demo project (temporary)\n' >"$demo/.aioson/config.md"
  say ""
  say "aioson at work in a temporary project ($demo):"
  ok=1
  for step in init emit status; do
    case "$step" in
      init) set -- runtime:init "$demo" ;;
      emit) set -- runtime:emit "$demo" --agent=dev --type=note --summary="hello from install.sh" ;;
      status) set -- runtime:status "$demo" ;;
    esac
    say "\$ aioson $*"
    if ! "$TARGET_FILE" "$@" </dev/null; then
      ok=0
      break
    fi
  done
  rm -rf "$demo"
  if [ "$ok" = 0 ]; then
    say "(the demo did not finish: this build does not yet do all of the above; the install itself is complete)"
  fi
}

main() {
  os=$(detect_os)
  arch=$(detect_arch "$os")
  suffix=""
  if [ "$os" = linux ] && [ "$(detect_libc)" = musl ]; then suffix="-musl"; fi
  target="aioson-$os-$arch$suffix"

  install_dir=${AIOSON_INSTALL_DIR:-}
  if [ -z "$install_dir" ]; then
    [ -n "${HOME:-}" ] || die "HOME is not set: set AIOSON_INSTALL_DIR to the folder to install into."
    install_dir="$HOME/.local/bin"
  fi
  case "$install_dir" in
    /*) ;;
    *) install_dir="$(pwd -P)/$install_dir" ;;
  esac
  TARGET_FILE="$install_dir/aioson"

  # Fail on an unwritable folder before spending time on a download or a build. The topmost folder that mkdir -p
  # will make is remembered, for cleanup to take back.
  INSTALL_DIR=$install_dir
  dir=$install_dir
  while [ ! -d "$dir" ] && [ ! -L "$dir" ]; do
    CREATED_TOP=$dir
    dir=$(dirname "$dir")
  done
  mkdir -p "$install_dir" 2>/dev/null || die "cannot create the install folder $install_dir." \
    "Choose another one with AIOSON_INSTALL_DIR=/some/writable/bin"
  probe="$install_dir/.aioson-write-test.$$"
  if ! (: >"$probe") 2>/dev/null; then
    die "the install folder $install_dir is not writable." \
      "Choose another one with AIOSON_INSTALL_DIR=/some/writable/bin (or fix its permissions)"
  fi
  rm -f "$probe"
  if [ -d "$TARGET_FILE" ]; then die "$TARGET_FILE is a directory; remove it or choose another AIOSON_INSTALL_DIR."; fi

  WORK=$(mktemp -d 2>/dev/null || mktemp -d -t aioson-install) || die "cannot create a temporary folder."
  checkout=$(checkout_dir)

  # Fetch the candidate into $WORK/$target and the list it must match into $sums.
  if [ -n "${AIOSON_DIST:-}" ]; then
    [ -d "$AIOSON_DIST" ] || die "AIOSON_DIST=$AIOSON_DIST is not a folder."
    from="$AIOSON_DIST"
    [ -f "$AIOSON_DIST/SHA256SUMS" ] || die "$AIOSON_DIST/SHA256SUMS is missing: cannot verify the binary." \
      "Build the folder with: npm run build:all"
    [ -f "$AIOSON_DIST/$target" ] || die "$AIOSON_DIST has no $target (the binary for this machine)."
    cp "$AIOSON_DIST/SHA256SUMS" "$WORK/SHA256SUMS"
    cp "$AIOSON_DIST/$target" "$WORK/$target"
    sums="$WORK/SHA256SUMS"
  elif [ -n "${AIOSON_BASE_URL:-}" ] || [ -z "$checkout" ]; then
    if [ -n "${AIOSON_BASE_URL:-}" ]; then
      base=${AIOSON_BASE_URL%/}
    elif [ -n "${AIOSON_VERSION:-}" ]; then
      base="$DEFAULT_RELEASES/download/v${AIOSON_VERSION#v}"
    else
      base="$DEFAULT_RELEASES/latest/download"
    fi
    from="$base"
    pick_downloader
    say "Downloading $target from $base ..."
    fetch "$base/SHA256SUMS" "$WORK/SHA256SUMS" || die "could not download $base/SHA256SUMS." \
      "Check the address (AIOSON_BASE_URL / AIOSON_VERSION) and your network."
    fetch "$base/$target" "$WORK/$target" || die "could not download $base/$target." \
      "Check the address (AIOSON_BASE_URL / AIOSON_VERSION) and your network."
    sums="$WORK/SHA256SUMS"
  else
    build_from_checkout "$checkout"
    from="$checkout/dist/aioson (built from this checkout)"
    # A local build has no SHA256SUMS entry: verify that the copy is byte-identical to the build.
    cp "$checkout/dist/aioson" "$WORK/$target"
    printf '%s  %s\n' "$(sha256_of "$checkout/dist/aioson")" "$target" >"$WORK/SHA256SUMS"
    sums="$WORK/SHA256SUMS"
  fi

  expected=$(expected_sum "$sums" "$target")
  [ -n "$expected" ] || die "SHA256SUMS from $from has no entry for $target: refusing to install an unverified binary."
  actual=$(sha256_of "$WORK/$target")
  if [ "$actual" != "$expected" ]; then
    die "checksum mismatch for $target: refusing to install it (nothing was changed)." \
      "expected $expected" "got      $actual" "source   $from"
  fi

  # Stage next to the destination (same file system) so that the final step is one atomic rename.
  STAGED="$install_dir/.aioson.new.$$"
  cp "$WORK/$target" "$STAGED" || die "cannot write into $install_dir."
  chmod 755 "$STAGED"
  # Children never read stdin: under `curl | sh` it is the rest of this script.
  if ! version=$("$STAGED" --version 2>&1 </dev/null); then
    die "the verified binary does not run on this machine: refusing to install it." "$target said: $version" "$(run_failure_hint "$version")"
  fi
  case "$version" in
    "aioson "*) ;;
    *) die "the verified binary did not identify itself as aioson: refusing to install it." "it said: $version" ;;
  esac
  if [ -n "${AIOSON_VERSION:-}" ]; then
    wanted=${AIOSON_VERSION#v}
    case "$version" in
      "aioson $wanted "* | "aioson $wanted") ;;
      *) die "AIOSON_VERSION=$AIOSON_VERSION was asked for but the binary is: $version" ;;
    esac
  fi

  if [ -f "$TARGET_FILE" ] && [ -x "$TARGET_FILE" ] && [ "$(sha256_of "$TARGET_FILE")" = "$actual" ]; then
    rm -f "$STAGED"
    STAGED=""
    say "$version is already installed at $TARGET_FILE (unchanged)."
  else
    mv -f "$STAGED" "$TARGET_FILE" || die "cannot move the new binary into $TARGET_FILE."
    STAGED=""
    CREATED_TOP=""
    say "Installed $version at $TARGET_FILE"
  fi

  case ":${PATH:-}:" in
    *":$install_dir:"*)
      found=$(command -v aioson 2>/dev/null || true)
      if [ -n "$found" ] && [ "$found" != "$TARGET_FILE" ]; then
        say "Note: another aioson comes first on your PATH: $found"
      fi ;;
    *) path_hint "$install_dir" ;;
  esac

  demo=${AIOSON_DEMO:-}
  if [ -z "$demo" ] && [ -n "$checkout" ]; then demo=1; fi
  if [ "$demo" = 1 ]; then show_demo; fi
}

case "${1:-}" in
  "") ;;
  -h | --help)
    cat <<'USAGE'
aioson installer

  curl -fsSL <base-url>/install.sh | sh      download the binary for this machine
  sh install.sh                              from a source checkout: build if needed, then install

Environment (all optional):
  AIOSON_INSTALL_DIR  where to put `aioson` (default: $HOME/.local/bin)
  AIOSON_DIST         a local folder of built binaries + SHA256SUMS (`npm run build:all` output)
  AIOSON_BASE_URL     a folder URL holding SHA256SUMS and aioson-<os>-<arch>[-musl] (default: GitHub releases)
  AIOSON_VERSION      pin a release (e.g. 0.2.0); the installed binary must report this version
  AIOSON_DEMO         1 = show aioson at work after installing, 0 = don't (default: 1 from a checkout)
USAGE
    exit 0 ;;
  *) die "unknown argument '$1': install.sh takes no arguments (settings are environment variables; see --help)." ;;
esac

main
