#!/usr/bin/env bash
# Builds the engine for the browser (crates/konane-wasm) into web/engine.wasm, which the
# binary embeds. The bytes depend only on the sources and the toolchain, not on where the
# checkout or the cargo home lies: paths are remapped, and the `wasm` profile strips
# everything else (scripts/check-wasm.sh builds twice in two folders and compares).
#
#   bash scripts/build-wasm.sh           # rebuild web/engine.wasm
#   bash scripts/build-wasm.sh --check   # fail when web/engine.wasm differs from the sources
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd -P)
target=wasm32-unknown-unknown

if ! rustup target list --installed 2>/dev/null | grep -qx "$target"; then
  rustup target add "$target"
fi

cargo_home=$(cd "${CARGO_HOME:-$HOME/.cargo}" && pwd -P)
# Unit separators between flags, so paths with spaces survive.
sep=$'\x1f'
export CARGO_ENCODED_RUSTFLAGS="--remap-path-prefix=$root=/konane$sep--remap-path-prefix=$cargo_home=/cargo"
cargo build --quiet --locked -p konane-wasm --target "$target" --profile wasm
built="target/$target/wasm/konane_wasm.wasm"

if [ "${1:-}" = "--check" ]; then
  if ! cmp -s "$built" web/engine.wasm; then
    echo "web/engine.wasm differs from what the sources build with $(rustc -V);" >&2
    echo "run: bash scripts/build-wasm.sh, and commit web/engine.wasm" >&2
    exit 1
  fi
  echo "web/engine.wasm matches the sources ($(wc -c <"$built") bytes)"
else
  install -m 0644 "$built" web/engine.wasm
  echo "web/engine.wasm: $(wc -c <web/engine.wasm) bytes, $(gzip -9 -n -c web/engine.wasm | wc -c) gzipped"
fi
