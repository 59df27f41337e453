#!/usr/bin/env bash
# CI's check of the browser engine: web/engine.wasm is exactly what the sources build, here
# and in a second folder (a copy of the tracked files), so the bytes depend on nothing but
# the sources and the toolchain.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build-wasm.sh --check
elsewhere=$(mktemp -d)
trap 'rm -rf "$elsewhere"' EXIT
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$elsewhere"
(cd "$elsewhere" && bash scripts/build-wasm.sh --check)
