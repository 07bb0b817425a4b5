#!/usr/bin/env bash
# The real-harness bench (test/real): the pinned harnesses of test/real/harnesses.json, installed from the npm
# registry into the cache on first use (AIOSON_REAL_CACHE, default ~/.cache/aioson-real), driven offline against
# scripted model servers with aioson's hooks installed. Runs after the build (dist/aioson exists). Warm cache:
# under a minute for Claude Code and Codex (whose TUI hook review runs in tmux, installed by .ci/run); the first
# install adds the downloads (about 90 MB for Claude Code; Codex takes 400 MB on disk).
set -euo pipefail
cd "$(dirname "$0")/../.."
npm run test:real
