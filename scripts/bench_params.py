"""The params file that scripts/bench.sh and scripts/bench-host.sh write
beside their runs, for the report scripts."""

import os


def read_params(out):
    """{key: value} of OUT/params, one key=value per line."""
    params = {}
    with open(os.path.join(out, "params")) as f:
        for line in f:
            key, _, value = line.rstrip("\n").partition("=")
            params[key] = value
    return params
