# CPython's str internals the compiled twins read characters with (included by _scan.pyx, _text.pyx and _anchor.pyx):
# preprocess/core/_ucs.pxd's.

from preprocess.core._ucs cimport (Py_UNICODE_ISSPACE, PyUnicode_4BYTE_KIND, PyUnicode_DATA, PyUnicode_FromKindAndData,
                                   PyUnicode_KIND, PyUnicode_READ, name_code, name_key)
from preprocess.core._ucs cimport is_word as _word_char
