#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Make tests/data/tc6-trace.pcapng, the committed trace of test-tc6-dissector.sh.

The input is a trace of tests/drivers/test-spi-pcapng.c (run it with
ETHDRV_TRACE_OUT=FILE); the output is the same trace with one MISO bit
flipped, as an SPI bit error would flip it: in the footer of the first RX
chunk that starts a frame (DV=1, SV=1), one bit of RCA. The footer's parity
then fails, which the dissector must flag, and the frame that chunk started
is lost, as a driver loses it. The packet layout is docs/spi-trace.md §2.

usage: make-tc6-trace.py IN.pcapng OUT.pcapng
"""
import struct
import sys


def main(src, dst):
    data = bytearray(open(src, "rb").read())
    off, flipped = 0, None
    while off + 12 <= len(data) and flipped is None:
        btype, blen = struct.unpack_from("<II", data, off)
        if btype == 6:
            pkt = off + 28
            n = struct.unpack_from(">I", data, pkt + 4)[0]
            mosi, miso = pkt + 12, pkt + 12 + n
            if data[mosi] & 0x80 and n % 68 == 0:
                for k in range(n // 68):
                    foot = miso + k * 68 + 64
                    w = struct.unpack_from(">I", data, foot)[0]
                    if w & (1 << 21) and w & (1 << 20):
                        data[foot] ^= 0x01  # RCA bit 24
                        flipped = foot
                        break
        off += blen
    if flipped is None:
        sys.exit("make-tc6-trace: no RX chunk that starts a frame")
    open(dst, "wb").write(data)
    print(f"flipped bit 24 of the footer at byte {flipped}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
