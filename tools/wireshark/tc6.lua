-- SPDX-License-Identifier: MIT
--
-- Wireshark dissector for OPEN Alliance TC6 (10BASE-T1x MAC-PHY serial
-- interface) SPI traces written by ethdrv (`--spi-trace FILE.pcapng`, link
-- type USER0; the packet layout is docs/spi-trace.md §2). One packet is one
-- SPI transfer: a 12-byte ethdrv header, the MOSI bytes, the MISO bytes.
--
-- It decodes control transactions (header, echo, register values named for
-- the standard and the LAN865x registers, protected mode), data chunks
-- (header and footer fields, start/end, credits), flags parity errors, and
-- reassembles the Ethernet frames of both directions from chunks across
-- transfers and hands them to Wireshark's Ethernet dissector. The facts are
-- docs/tc6.md §1.2-§1.5 (control), §2.1-§2.4 (data) and §3 (registers).
--
-- Use: tshark -X lua_script:tools/wireshark/tc6.lua -r trace.pcapng
--      or copy it to ~/.local/lib/wireshark/plugins/.

local tc6 = Proto("tc6", "OPEN Alliance TC6 SPI transfer")

local bit32 = bit32 or bit
local band, bor, rshift, bxor = bit32.band, bit32.bor, bit32.rshift, bit32.bxor

local function bits(v, hi, lo)
    return band(rshift(v, lo), 2 ^ (hi - lo + 1) - 1)
end

local yesno = { [0] = "no", [1] = "yes" }

local f = tc6.fields
f.version = ProtoField.uint8("tc6.version", "Trace version")
f.flags = ProtoField.uint8("tc6.flags", "Trace flags", base.HEX)
f.xfer_error = ProtoField.bool("tc6.xfer_error", "Transfer returned an error")
f.node = ProtoField.uint16("tc6.node", "Node")
f.len = ProtoField.uint32("tc6.len", "Bytes per direction")
f.duration = ProtoField.uint32("tc6.duration_ns", "Transfer duration (ns)")
f.kind = ProtoField.string("tc6.kind", "Transaction")
f.mosi = ProtoField.bytes("tc6.mosi", "MOSI")
f.miso = ProtoField.bytes("tc6.miso", "MISO")
f.parity_error = ProtoField.bool("tc6.parity_error", "Parity error")
-- control
f.c_hdr = ProtoField.uint32("tc6.ctrl.header", "Control header", base.HEX)
f.c_wnr = ProtoField.uint8("tc6.ctrl.wnr", "WNR (write)", base.DEC, yesno)
f.c_aid = ProtoField.uint8("tc6.ctrl.aid", "AID (address increment disabled)", base.DEC, yesno)
f.c_mms = ProtoField.uint8("tc6.ctrl.mms", "MMS")
f.c_addr = ProtoField.uint16("tc6.ctrl.addr", "Address", base.HEX)
f.c_count = ProtoField.uint8("tc6.ctrl.count", "Registers")
f.c_prot = ProtoField.bool("tc6.ctrl.protected", "Protected")
f.c_echo = ProtoField.uint32("tc6.ctrl.echo", "Header echo", base.HEX)
f.c_echo_ok = ProtoField.bool("tc6.ctrl.echo_ok", "Echo matches")
f.c_reg = ProtoField.string("tc6.ctrl.reg", "Register")
f.c_value = ProtoField.uint32("tc6.ctrl.value", "Value", base.HEX)
f.c_prot_error = ProtoField.bool("tc6.ctrl.protection_error", "Complement mismatch")
-- data header (MOSI)
f.d_chunk = ProtoField.uint16("tc6.chunk", "Chunk")
f.h_word = ProtoField.uint32("tc6.tx.header", "Data header", base.HEX)
f.h_seq = ProtoField.uint8("tc6.tx.seq", "SEQ")
f.h_norx = ProtoField.uint8("tc6.tx.norx", "NORX", base.DEC, yesno)
f.h_dv = ProtoField.uint8("tc6.tx.dv", "DV", base.DEC, yesno)
f.h_sv = ProtoField.uint8("tc6.tx.sv", "SV (frame starts)", base.DEC, yesno)
f.h_swo = ProtoField.uint8("tc6.tx.swo", "SWO")
f.h_ev = ProtoField.uint8("tc6.tx.ev", "EV (frame ends)", base.DEC, yesno)
f.h_ebo = ProtoField.uint8("tc6.tx.ebo", "EBO")
f.h_tsc = ProtoField.uint8("tc6.tx.tsc", "TSC")
-- data footer (MISO)
f.r_word = ProtoField.uint32("tc6.rx.footer", "Data footer", base.HEX)
f.r_exst = ProtoField.uint8("tc6.rx.exst", "EXST (extended status)", base.DEC, yesno)
f.r_hdrb = ProtoField.uint8("tc6.rx.hdrb", "HDRB (header bad)", base.DEC, yesno)
f.r_sync = ProtoField.uint8("tc6.rx.sync", "SYNC", base.DEC, yesno)
f.r_rca = ProtoField.uint8("tc6.rx.rca", "RCA (receive chunks available)")
f.r_dv = ProtoField.uint8("tc6.rx.dv", "DV", base.DEC, yesno)
f.r_sv = ProtoField.uint8("tc6.rx.sv", "SV (frame starts)", base.DEC, yesno)
f.r_swo = ProtoField.uint8("tc6.rx.swo", "SWO")
f.r_fd = ProtoField.uint8("tc6.rx.fd", "FD (frame drop)", base.DEC, yesno)
f.r_ev = ProtoField.uint8("tc6.rx.ev", "EV (frame ends)", base.DEC, yesno)
f.r_ebo = ProtoField.uint8("tc6.rx.ebo", "EBO")
f.r_rtsa = ProtoField.uint8("tc6.rx.rtsa", "RTSA (timestamp added)", base.DEC, yesno)
f.r_txc = ProtoField.uint8("tc6.rx.txc", "TXC (transmit credits)")
-- reassembly
f.frame_dir = ProtoField.string("tc6.frame.dir", "Reassembled frame")
f.frame_len = ProtoField.uint16("tc6.frame.len", "Frame length")
f.frame_start = ProtoField.framenum("tc6.frame.start", "Frame started in")
f.frame_dropped = ProtoField.bool("tc6.frame.dropped", "Dropped (FD or broken framing)")

local e_parity = ProtoExpert.new("tc6.parity.bad", "Parity error", expert.group.CHECKSUM,
                                 expert.severity.ERROR)
local e_echo = ProtoExpert.new("tc6.echo.bad", "Control echo differs from the header sent",
                               expert.group.PROTOCOL, expert.severity.WARN)
local e_prot = ProtoExpert.new("tc6.protected.bad", "Protected value: complement mismatch",
                               expert.group.CHECKSUM, expert.severity.ERROR)
local e_len = ProtoExpert.new("tc6.len.bad", "Length fits no TC6 transaction",
                              expert.group.MALFORMED, expert.severity.ERROR)
local e_fd = ProtoExpert.new("tc6.frame.fd", "Frame dropped by the MAC-PHY (FD)",
                             expert.group.SEQUENCE, expert.severity.WARN)
tc6.experts = { e_parity, e_echo, e_prot, e_len, e_fd }

-- Register names (docs/tc6.md §3.2, §3.6, §5.1-§5.3): [mms][addr].
local regs = {
    [0] = { [0x00] = "IDVER", [0x01] = "PHYID", [0x02] = "STDCAP", [0x03] = "RESET",
            [0x04] = "CONFIG0", [0x06] = "CONFIG2", [0x08] = "STATUS0", [0x09] = "STATUS1",
            [0x0B] = "BUFSTS", [0x0C] = "IMASK0", [0x0D] = "IMASK1", [0x10] = "TTSCAH",
            [0x11] = "TTSCAL", [0x12] = "TTSCBH", [0x13] = "TTSCBL", [0x14] = "TTSCCH",
            [0x15] = "TTSCCL", [0xFF00] = "PHY BMCR", [0xFF01] = "PHY BMSR",
            [0xFF02] = "PHY ID1", [0xFF03] = "PHY ID2", [0xFF0D] = "PHY MMDCTRL",
            [0xFF0E] = "PHY MMDAD" },
    [1] = { [0x00] = "MAC NCR", [0x01] = "MAC NCFGR", [0x20] = "MAC HRB", [0x21] = "MAC HRT",
            [0x22] = "MAC SAB1", [0x23] = "MAC SAT1", [0x24] = "MAC SAB2", [0x25] = "MAC SAT2",
            [0x77] = "MAC TI" },
    [4] = { [0x84] = "CFGPARAM1", [0x87] = "COL_DET_CTRL0", [0x8A] = "CFGPARAM2",
            [0xD8] = "IND_ADDR", [0xD9] = "IND_DATA", [0xDA] = "IND_CTRL",
            [0xCA00] = "PLCA IDVER", [0xCA01] = "PLCA CTRL0", [0xCA02] = "PLCA CTRL1",
            [0xCA03] = "PLCA STATUS", [0xCA04] = "PLCA TOTMR", [0xCA05] = "PLCA BURST" },
    [10] = { [0x81] = "QTXCFG", [0x82] = "QRXCFG", [0x88] = "PADCTRL", [0x89] = "CLKOCTL",
             [0x8C] = "MISC", [0x94] = "DEVID", [0x96] = "BUSPCS", [0x99] = "CFGPRTCTL" },
}

local function reg_name(mms, addr)
    local t = regs[mms]
    local n = t and t[addr]
    return n or string.format("MMS%d 0x%04X", mms, addr)
end

-- Odd parity over the whole word (docs/tc6.md §1.3): the XOR of all 32 bits is 1.
local function parity_ok(w)
    local x = 0
    while w ~= 0 do
        x = bxor(x, band(w, 1))
        w = rshift(w, 1)
    end
    return x == 1
end

-- ---- reassembly state: built on the first pass, read on every pass ----

local open = {} -- [node .. dir] = { bytes = ByteArray, start = frame number }
local done = {} -- [frame number] = list of { dir, hex, start, dropped }
local notes = {} -- [frame number] = list of text notes from the first pass

function tc6.init()
    open, done, notes = {}, {}, {}
end

local function note(num, text)
    notes[num] = notes[num] or {}
    table.insert(notes[num], text)
end

local function finish(num, key, dir, dropped)
    local o = open[key]
    open[key] = nil
    if not o then
        return
    end
    done[num] = done[num] or {}
    table.insert(done[num], { dir = dir, hex = tostring(o.bytes), start = o.start,
                              dropped = dropped })
end

-- One chunk's framing (SV/SWO/EV/EBO of a header or a footer, docs/tc6.md §2.4).
local function reassemble(num, node, dir, payload, dv, sv, swo, ev, ebo, fd)
    local key = node .. dir
    if dv == 0 then
        return
    end
    local n = payload:len()
    local start = swo * 4
    if sv == 1 and ev == 1 and start > ebo then
        if open[key] then
            open[key].bytes:append(payload:subset(0, ebo + 1))
            finish(num, key, dir, fd == 1)
        end
        open[key] = { bytes = payload:subset(start, n - start), start = num }
        return
    end
    if sv == 1 then
        if open[key] then
            note(num, dir .. ": a frame started before the open one ended (dropped)")
            finish(num, key, dir, true)
        end
        open[key] = { bytes = ByteArray.new(), start = num }
    else
        start = 0
    end
    if not open[key] then
        return -- the middle or end of a frame that started before the trace
    end
    if ev == 1 then
        open[key].bytes:append(payload:subset(start, ebo + 1 - start))
        finish(num, key, dir, fd == 1)
    else
        open[key].bytes:append(payload:subset(start, n - start))
    end
end

-- ---- control transactions (docs/tc6.md §1.2-§1.5) ----

local function dissect_control(mosi, miso, len, tree, pinfo)
    local hdr = mosi(0, 4):uint()
    local wnr, aid, mms = bits(hdr, 29, 29), bits(hdr, 28, 28), bits(hdr, 27, 24)
    local addr, count = bits(hdr, 23, 8), bits(hdr, 7, 1) + 1
    local prot
    if len == 8 + 4 * count then
        prot = false
    elseif len == 8 + 8 * count then
        prot = true
    end
    local t = tree:add(f.c_hdr, mosi(0, 4))
    t:add(f.c_wnr, mosi(0, 1), wnr)
    t:add(f.c_aid, mosi(0, 1), aid)
    t:add(f.c_mms, mosi(0, 1), mms)
    t:add(f.c_addr, mosi(1, 2), addr)
    t:add(f.c_count, mosi(3, 1), count)
    if not parity_ok(hdr) then
        t:add(f.parity_error, mosi(0, 4), true)
        t:add_proto_expert_info(e_parity, "control header parity")
    end
    if prot == nil then
        tree:add_proto_expert_info(e_len)
        return "control (malformed)"
    end
    tree:add(f.c_prot, prot)
    -- MISO is MOSI one word later: word 1 echoes the header.
    local echo = miso(4, 4):uint()
    local et = tree:add(f.c_echo, miso(4, 4))
    et:add(f.c_echo_ok, echo == hdr)
    if echo ~= hdr then
        et:add_proto_expert_info(e_echo)
    end
    local stride = prot and 8 or 4
    local first
    for i = 0, count - 1 do
        local a = aid == 1 and addr or addr + i
        local src = wnr == 1 and mosi or miso
        local off = (wnr == 1 and 4 or 8) + i * stride
        local v = src(off, 4):uint()
        local name = reg_name(mms, a)
        local rt = tree:add(f.c_reg, src(off, stride), name)
        rt:append_text(string.format(" (MMS %d, 0x%04X) = 0x%08X", mms, a, v))
        rt:add(f.c_value, src(off, 4))
        if prot and bxor(v, src(off + 4, 4):uint()) ~= 0xFFFFFFFF then
            rt:add(f.c_prot_error, true)
            rt:add_proto_expert_info(e_prot)
        end
        first = first or string.format("%s = 0x%08X", name, v)
    end
    local what = (wnr == 1 and "write " or "read ") .. first
    if count > 1 then
        what = what .. string.format(" (+%d more)", count - 1)
    end
    return what
end

-- ---- data transactions (docs/tc6.md §2) ----

local function dissect_data(mosi, miso, len, tree, pinfo, node)
    local cs = (len % 68 == 0) and 68 or ((len % 36 == 0) and 36 or nil)
    if not cs then
        tree:add_proto_expert_info(e_len)
        return "data (malformed)"
    end
    local pl, chunks, bad = cs - 4, len / cs, 0
    local txc, rca, tx_dv, rx_dv
    for k = 0, chunks - 1 do
        local base = k * cs
        local h = mosi(base, 4):uint()
        local ft = miso(base + pl, 4):uint()
        local ct = tree:add(f.d_chunk, mosi(base, cs), k)
        local ht = ct:add(f.h_word, mosi(base, 4))
        local hdv, hsv, hswo = bits(h, 21, 21), bits(h, 20, 20), bits(h, 19, 16)
        local hev, hebo = bits(h, 14, 14), bits(h, 13, 8)
        ht:add(f.h_seq, mosi(base, 1), bits(h, 30, 30))
        ht:add(f.h_norx, mosi(base, 1), bits(h, 29, 29))
        ht:add(f.h_dv, mosi(base + 1, 1), hdv)
        ht:add(f.h_sv, mosi(base + 1, 1), hsv)
        ht:add(f.h_swo, mosi(base + 1, 1), hswo)
        ht:add(f.h_ev, mosi(base + 2, 1), hev)
        ht:add(f.h_ebo, mosi(base + 2, 1), hebo)
        ht:add(f.h_tsc, mosi(base + 3, 1), bits(h, 7, 6))
        local hok = parity_ok(h)
        if not hok then
            bad = bad + 1
            ht:add(f.parity_error, mosi(base, 4), true)
            ht:add_proto_expert_info(e_parity, "data header parity")
        end
        local rt = ct:add(f.r_word, miso(base + pl, 4))
        local rdv, rsv, rswo = bits(ft, 21, 21), bits(ft, 20, 20), bits(ft, 19, 16)
        local rfd, rev, rebo = bits(ft, 15, 15), bits(ft, 14, 14), bits(ft, 13, 8)
        rt:add(f.r_exst, miso(base + pl, 1), bits(ft, 31, 31))
        rt:add(f.r_hdrb, miso(base + pl, 1), bits(ft, 30, 30))
        rt:add(f.r_sync, miso(base + pl, 1), bits(ft, 29, 29))
        rt:add(f.r_rca, miso(base + pl, 1), bits(ft, 28, 24))
        rt:add(f.r_dv, miso(base + pl + 1, 1), rdv)
        rt:add(f.r_sv, miso(base + pl + 1, 1), rsv)
        rt:add(f.r_swo, miso(base + pl + 1, 1), rswo)
        rt:add(f.r_fd, miso(base + pl + 2, 1), rfd)
        rt:add(f.r_ev, miso(base + pl + 2, 1), rev)
        rt:add(f.r_ebo, miso(base + pl + 2, 1), rebo)
        rt:add(f.r_rtsa, miso(base + pl + 3, 1), bits(ft, 7, 7))
        rt:add(f.r_txc, miso(base + pl + 3, 1), bits(ft, 5, 1))
        local fok = parity_ok(ft)
        if not fok then
            bad = bad + 1
            rt:add(f.parity_error, miso(base + pl, 4), true)
            rt:add_proto_expert_info(e_parity, "data footer parity")
        end
        txc, rca = bits(ft, 5, 1), bits(ft, 28, 24)
        tx_dv = (tx_dv or 0) + hdv
        rx_dv = (rx_dv or 0) + (fok and rdv or 0)
        if not pinfo.visited then
            if hok then
                reassemble(pinfo.number, node, "TX", mosi:bytes(base + 4, pl), hdv, hsv,
                           hswo, hev, hebo, 0)
            end
            if fok then
                reassemble(pinfo.number, node, "RX", miso:bytes(base, pl), rdv, rsv, rswo,
                           rev, rebo, rfd)
            elseif open[node .. "RX"] then
                -- A footer that fails parity says nothing reliable: the open
                -- frame is lost, as a driver drops it.
                note(pinfo.number, "RX: footer parity error, open frame dropped")
                finish(pinfo.number, node .. "RX", "RX", true)
            end
        end
    end
    local s = string.format("data: %d chunk%s, TX data %d, RX data %d, TXC %d, RCA %d",
                            chunks, chunks == 1 and "" or "s", tx_dv, rx_dv, txc, rca)
    if bad > 0 then
        s = s .. string.format(", %d parity error%s", bad, bad == 1 and "" or "s")
    end
    return s
end

local eth = Dissector.get("eth_maybefcs")

function tc6.dissector(tvb, pinfo, tree)
    if tvb:len() < 12 then
        return 0
    end
    pinfo.cols.protocol = "TC6"
    local len = tvb(4, 4):uint()
    local node = tvb(2, 2):uint()
    local t = tree:add(tc6, tvb(), "OPEN Alliance TC6 SPI transfer")
    t:add(f.version, tvb(0, 1))
    local fl = t:add(f.flags, tvb(1, 1))
    fl:add(f.xfer_error, tvb(1, 1), band(tvb(1, 1):uint(), 1) ~= 0)
    t:add(f.node, tvb(2, 2))
    t:add(f.len, tvb(4, 4))
    t:add(f.duration, tvb(8, 4))
    if tvb:len() < 12 + 2 * len or len < 4 then
        t:add_proto_expert_info(e_len)
        return tvb:len()
    end
    local mosi, miso = tvb(12, len):tvb("MOSI"), tvb(12 + len, len):tvb("MISO")
    t:add(f.mosi, tvb(12, len))
    t:add(f.miso, tvb(12 + len, len))
    local what
    if band(mosi(0, 4):uint(), 0x80000000) == 0 then
        t:add(f.kind, "control")
        what = dissect_control(mosi, miso, len, t, pinfo)
    else
        t:add(f.kind, "data")
        what = dissect_data(mosi, miso, len, t, pinfo, node)
    end
    pinfo.cols.info = string.format("node %d %s", node, what)
    for _, n in ipairs(notes[pinfo.number] or {}) do
        t:add_expert_info(PI_SEQUENCE, PI_NOTE, n)
    end
    for _, fr in ipairs(done[pinfo.number] or {}) do
        local ft = t:add(f.frame_dir, fr.dir)
        local bytes = ByteArray.new(fr.hex)
        ft:add(f.frame_len, bytes:len())
        ft:add(f.frame_start, fr.start)
        if fr.dropped then
            ft:add(f.frame_dropped, true)
            ft:add_proto_expert_info(e_fd)
        elseif bytes:len() >= 14 then
            eth:call(bytes:tvb(fr.dir .. " frame"), pinfo, tree)
        end
    end
    return tvb:len()
end

local encap = wtap_encaps and wtap_encaps.USER0 or wtap.USER0
DissectorTable.get("wtap_encap"):add(encap, tc6)
