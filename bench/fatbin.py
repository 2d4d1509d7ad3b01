"""The CUDA machine code an object file or shared library carries, read from the headers of its
``.nv_fatbin`` section (the CUDA 13.0 toolkit on the CPU machines here has no cuobjdump).

``python -m bench.fatbin FILE`` prints a summary such as ``cubin:sm_90 x28``; the prep scripts
(bench/flash_min_prep.sh, bench/exl2_prep.sh) check that only sm_90 cubins, no PTX, are there.
"""

from __future__ import annotations

import collections
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

_FATBIN_MAGIC = 0xBA55ED50
_KINDS = {1: "ptx", 2: "cubin"}


def entries(path: Path) -> list[str]:
    """``kind:sm_NN`` of every entry in ``path``'s fatbins, in order ([] when none)."""
    with tempfile.NamedTemporaryFile() as tmp:
        subprocess.run(
            ["objcopy", "-O", "binary", "--only-section=.nv_fatbin", str(path), tmp.name],
            check=True,
        )
        data = Path(tmp.name).read_bytes()
    found, off = [], 0
    while off + 16 <= len(data):
        magic, _version, header_size, size = struct.unpack_from("<IHHQ", data, off)
        if magic != _FATBIN_MAGIC:
            off += 8  # fatbins are 8-byte aligned in the section
            continue
        entry, end = off + header_size, off + header_size + size
        while entry < end:
            kind, _unused, entry_header, entry_size = struct.unpack_from("<HHIQ", data, entry)
            arch = struct.unpack_from("<I", data, entry + 28)[0]
            found.append(f"{_KINDS.get(kind, kind)}:sm_{arch}")
            entry += entry_header + entry_size
        off = end
    return found


def summary(path: Path) -> str:
    """``kind:sm_NN xCOUNT`` per kind of entry, sorted."""
    counts = collections.Counter(entries(path))
    return " ".join(f"{k} x{v}" for k, v in sorted(counts.items()))


if __name__ == "__main__":
    print(summary(Path(sys.argv[1])))
