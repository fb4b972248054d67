#!/usr/bin/env bash
# Builds (or, with "test", tests) the go variant from the repository root: ./bench build runs this as the manifest
# entry's build command. The Go toolchain builds the binary; nothing runs it but the binary itself (runtime
# "native"). The compiler is part of what is measured, so it is pinned: go.mod's toolchain line (go1.26.8), taken
# from the Go module proxy by the go command itself (GOTOOLCHAIN) when the go on this machine is another version.
# A machine without any go gets Debian's golang-go (apt-get, as root), whose go (1.19 on bookworm) predates
# toolchain switching: it downloads the pinned toolchain as the Go module it is (golang.org/toolchain) instead.
set -euo pipefail

folder="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$folder"
toolchain="$(sed -n 's/^toolchain \(go[0-9.]*\)$/\1/p' go.mod)"
[ -n "$toolchain" ] || { echo "build.sh: go.mod has no toolchain line" >&2; exit 1; }

find_go() {
  local candidate
  for candidate in "${GO:-}" "$(command -v go 2>/dev/null || true)" /usr/local/go/bin/go /usr/lib/go/bin/go \
      /usr/lib/go-*/bin/go "$HOME/go/bin/go" "$HOME/sdk/go/bin/go"; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

go_bin="$(find_go || true)"
if [ -z "$go_bin" ]; then
  echo "build.sh: no go on this machine: installing Debian's golang-go" >&2
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
    echo "build.sh: cannot install Go here (needs root and apt-get): install Go 1.21 or newer" >&2
    exit 1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q golang-go >&2 \
    || { apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q golang-go >&2; }
  go_bin="$(find_go)"
fi

# go1.X.Y → X (the minor version decides whether this go can switch toolchains: 1.21 and later).
local_version="$("$go_bin" env GOVERSION 2>/dev/null || "$go_bin" version | awk '{print $3}')"
local_minor="$(echo "$local_version" | sed -n 's/^go1\.\([0-9]*\).*/\1/p')"
if [ -n "$local_minor" ] && [ "$local_minor" -ge 21 ]; then
  export GOTOOLCHAIN="$toolchain"
else
  # An old go: fetch the toolchain module through the module proxy with it (the same zip GOTOOLCHAIN takes),
  # then mark its programs executable (module zips keep no file modes; the go command does this itself too).
  arch="$("$go_bin" env GOARCH)"
  os="$("$go_bin" env GOOS)"
  module="golang.org/toolchain@v0.0.1-${toolchain}.${os}-${arch}"
  echo "build.sh: $local_version cannot switch toolchains: fetching $module" >&2
  dir="$(cd /tmp && GOFLAGS=-modcacherw GO111MODULE=on "$go_bin" mod download -json "$module" \
    | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [ -n "$dir" ] && [ -d "$dir/bin" ] || { echo "build.sh: could not fetch $module" >&2; exit 1; }
  chmod -R u+x "$dir/bin" "$dir/pkg/tool"
  go_bin="$dir/bin/go"
  unset GOROOT # the old go's; the toolchain finds its own (and its go.env, with the module proxy)
  export GOTOOLCHAIN=local
fi
export GOFLAGS="${GOFLAGS:-} -mod=readonly -buildvcs=false"

case "${1:-build}" in
  build)
    "$go_bin" version
    "$go_bin" build -trimpath -o target/restbench-go .
    ;;
  test)
    "$go_bin" vet ./...
    "$go_bin" test -count=1 ./...
    ;;
  *)
    echo "usage: build.sh [build|test]" >&2
    exit 2
    ;;
esac
