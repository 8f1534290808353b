# Tag names as ids, and the element categories of HTML's tree construction rules as bit flags (included by
# _raw.pyx; the categories are raw/elements.py's). A known name of up to 10 ASCII letters and digits is found by
# its 6-bit-a-character key in a C table; any other name by a dict (ids past the known ones: per reading).

from preprocess.cleaners.learned.raw import elements as _el
from preprocess.cleaners.learned.blocks import TAG_INDEX as _TAG_INDEX

cdef enum:
    F_BLOCK = 1 << 0
    F_NOISE = 1 << 1
    F_VOID = 1 << 2
    F_RAW = 1 << 3
    F_FORMATTING = 1 << 4
    F_SPECIAL = 1 << 5
    F_SCOPE = 1 << 6
    F_BUTTON_SCOPE = 1 << 7
    F_LIST_SCOPE = 1 << 8
    F_TABLE_SCOPE = 1 << 9
    F_IMPLIED = 1 << 10
    F_CLOSES_P = 1 << 11
    F_HEADING = 1 << 12
    F_HEAD_VOID = 1 << 13
    F_HEAD_TAGS = 1 << 14
    F_TABLE_PARTS = 1 << 15
    F_FOSTER = 1 << 16
    F_BREAKOUT = 1 << 17
    F_INTEGRATION = 1 << 18
    F_NEVER_HINTED = 1 << 19
    F_CELL = 1 << 20      # td th
    F_TSECTION = 1 << 21  # tbody thead tfoot
    F_DDDT = 1 << 22      # dd dt
    F_RCDATA = 1 << 23

cdef enum:  # insertion modes an open element decides (MODE_OF)
    M_NONE, M_BODY, M_CELL, M_ROW, M_TBODY, M_CAPTION, M_COLGROUP, M_TABLE, M_SELECT

DEF MAX_KNOWN = 400
DEF HSIZE = 2048

cdef unsigned int _flags[MAX_KNOWN]
cdef int _mode_of[MAX_KNOWN]
cdef int _tag_index[MAX_KNOWN]
cdef unsigned long long _hkeys[HSIZE]
cdef int _hids[HSIZE]
cdef int K = 0
_KNOWN = {}   # name -> id
_NAMES = []   # id -> name (known ones)

_SETS = ((F_BLOCK, _el.BLOCK), (F_NOISE, _el.NOISE_SET), (F_VOID, _el.VOID), (F_RAW, _el.RAW_ELEMENTS),
         (F_FORMATTING, _el.FORMATTING), (F_SPECIAL, _el.SPECIAL), (F_SCOPE, _el.SCOPE),
         (F_BUTTON_SCOPE, _el.BUTTON_SCOPE), (F_LIST_SCOPE, _el.LIST_SCOPE), (F_TABLE_SCOPE, _el.TABLE_SCOPE),
         (F_IMPLIED, _el.IMPLIED), (F_CLOSES_P, _el.CLOSES_P), (F_HEADING, _el.HEADINGS),
         (F_HEAD_VOID, _el.HEAD_VOID), (F_HEAD_TAGS, _el.HEAD_TAGS), (F_TABLE_PARTS, _el.TABLE_PARTS),
         (F_FOSTER, _el.FOSTER_TARGETS), (F_BREAKOUT, _el.BREAKOUT), (F_INTEGRATION, _el.INTEGRATION),
         (F_NEVER_HINTED, _el.NEVER_HINTED), (F_CELL, {"td", "th"}), (F_TSECTION, {"tbody", "thead", "tfoot"}),
         (F_DDDT, {"dd", "dt"}), (F_RCDATA, _el.RCDATA))
_MODES = {"cell": M_CELL, "row": M_ROW, "tbody": M_TBODY, "caption": M_CAPTION, "colgroup": M_COLGROUP,
          "table": M_TABLE, "select": M_SELECT, "body": M_BODY}
# common names in no category: found by their key, not a dict
_PLAIN = ("span img abbr acronym bdi bdo cite data del dfn ins kbd label mark q samp sub sup time var picture "
          "canvas audio video output progress meter legend optgroup option datalist slot path g circle rect line "
          "polyline polygon ellipse use defs symbol lineargradient radialgradient stop clippath mask text tspan "
          "image filter desc title span nobr").split()


cdef inline unsigned long long _key6(int kind, void *data, Py_ssize_t lo, Py_ssize_t hi) noexcept:
    return name_key(kind, data, lo, hi, True)  # (ASCII upper case: the tokenizer lower-cases it)


cdef inline Py_ssize_t _slot(unsigned long long k) noexcept:
    return <Py_ssize_t> ((k * 0x9E3779B97F4A7C15ULL) >> 53)  # (11 bits: HSIZE)


cdef int _add_known(str name) except -1:
    global K
    cdef bytes b
    cdef unsigned long long k
    cdef Py_ssize_t h
    if name in _KNOWN:
        return _KNOWN[name]
    if K >= MAX_KNOWN:
        raise ValueError("too many known tag names")
    _KNOWN[name] = K
    _NAMES.append(name)
    _flags[K] = 0
    for bit, names in _SETS:
        if name in names:
            _flags[K] |= bit
    _mode_of[K] = _MODES[_el.MODE_OF[name]] if name in _el.MODE_OF else M_NONE
    _tag_index[K] = _TAG_INDEX.get(name, -1)
    k = _key6(PyUnicode_KIND(name), PyUnicode_DATA(name), 0, len(name))
    if k:
        h = _slot(k)
        while _hkeys[h]:
            h = (h + 1) & (HSIZE - 1)
        _hkeys[h], _hids[h] = k, K
    K += 1
    return K - 1


cdef _init_names():
    for _bit, names in _SETS:
        for name in sorted(names):
            _add_known(name)
    for name in _PLAIN + sorted(_TAG_INDEX) + sorted(_el.MODE_OF) + ["a", "html", "head", "body", "image"]:
        _add_known(name)


_init_names()

cdef int T_HTML = _KNOWN["html"], T_HEAD = _KNOWN["head"], T_BODY = _KNOWN["body"], T_P = _KNOWN["p"]
cdef int T_A = _KNOWN["a"], T_LI = _KNOWN["li"], T_DD = _KNOWN["dd"], T_DT = _KNOWN["dt"], T_FORM = _KNOWN["form"]
cdef int T_BUTTON = _KNOWN["button"], T_NOBR = _KNOWN["nobr"], T_TABLE = _KNOWN["table"], T_TR = _KNOWN["tr"]
cdef int T_TD = _KNOWN["td"], T_TH = _KNOWN["th"], T_TBODY = _KNOWN["tbody"], T_THEAD = _KNOWN["thead"]
cdef int T_TFOOT = _KNOWN["tfoot"], T_CAPTION = _KNOWN["caption"], T_COLGROUP = _KNOWN["colgroup"]
cdef int T_COL = _KNOWN["col"], T_SELECT = _KNOWN["select"], T_OPTION = _KNOWN["option"]
cdef int T_OPTGROUP = _KNOWN["optgroup"], T_TEMPLATE = _KNOWN["template"], T_SVG = _KNOWN["svg"]
cdef int T_MATH = _KNOWN["math"], T_NOSCRIPT = _KNOWN["noscript"], T_TITLE = _KNOWN["title"]
cdef int T_SCRIPT = _KNOWN["script"], T_STYLE = _KNOWN["style"], T_META = _KNOWN["meta"], T_LINK = _KNOWN["link"]
cdef int T_BR = _KNOWN["br"], T_HR = _KNOWN["hr"], T_PRE = _KNOWN["pre"], T_LISTING = _KNOWN["listing"]
cdef int T_TEXTAREA = _KNOWN["textarea"], T_XMP = _KNOWN["xmp"], T_IFRAME = _KNOWN["iframe"]
cdef int T_NOEMBED = _KNOWN["noembed"], T_NOFRAMES = _KNOWN["noframes"], T_IMAGE = _KNOWN["image"]
cdef int T_IMG = _KNOWN["img"], T_INPUT = _KNOWN["input"], T_FONT = _KNOWN["font"], T_APPLET = _KNOWN["applet"]
cdef int T_MARQUEE = _KNOWN["marquee"], T_OBJECT = _KNOWN["object"], T_FRAMESET = _KNOWN["frameset"]
cdef int T_FRAME = _KNOWN["frame"], T_KEYGEN = _KNOWN["keygen"], T_WBR = _KNOWN["wbr"], T_AREA = _KNOWN["area"]
cdef int T_EMBED = _KNOWN["embed"], T_PARAM = _KNOWN["param"], T_SOURCE = _KNOWN["source"]
cdef int T_TRACK = _KNOWN["track"], T_RUBY = _add_known("ruby")
cdef int T_RB = _add_known("rb"), T_RTC = _add_known("rtc"), T_RP = _add_known("rp"), T_RT = _add_known("rt")
cdef int T_ADDRESS = _KNOWN["address"], T_DIV = _KNOWN["div"]
cdef int T_BASEFONT = _KNOWN["basefont"], T_BGSOUND = _KNOWN["bgsound"]
cdef int T_PLAINTEXT = _add_known("plaintext"), T_ISINDEX = _add_known("isindex")


cdef inline unsigned int fl(int name) noexcept:
    return _flags[name] if name < K else 0


cdef str name_of(Reader r, int name):
    return _NAMES[name] if name < K else r.unknown_names[name - K]
