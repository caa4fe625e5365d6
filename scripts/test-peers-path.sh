# Sourced by scripts/install-deps.sh and scripts/test-runs.sh: where the Python test peers live
# when python3 is externally managed (PEP 668), and that environment first on PATH once it
# exists, so the tests' `python3` finds them.
test_peers_venv=.build/test-peers
if [ -x "$test_peers_venv/bin/python3" ]; then
    export PATH="$PWD/$test_peers_venv/bin:$PATH"
fi
