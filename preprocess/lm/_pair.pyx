# distutils: language = c++
# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled twin of ``Pair.score_many_python`` (:mod:`preprocess.lm.contrastive`): a page's sentences scored
under both models of a pair in one call, each token mapped to its two KenLM word indices by one hash lookup.

It calls the models the ``kenlm`` module loaded, through KenLM's virtual interface (headers of the same sdist
version, ``scripts/build_kenlm.sh``), and sums exactly as that module's ``score`` does (KenLM's
``ScoreSentence``: a C ``float`` per model, in token order, ``</s>`` last), so the scores are the same floats.
A text the Python twin would split differently (a NUL byte, which ends KenLM's C string, or a whitespace
character outside ASCII's six) or cannot encode is left to ``fallback``. ``CompiledPair`` checks the
``kenlm.Model`` object's layout before using it and raises ValueError where it does not match.
"""
from cpython.ref cimport PyObject
from libcpp.vector cimport vector

cdef extern from "Python.h":
    const char *PyUnicode_AsUTF8AndSize(object, Py_ssize_t *)
    bint PyUnicode_IS_ASCII(object)
    int PyUnicode_KIND(object)
    void *PyUnicode_DATA(object)
    Py_UCS4 PyUnicode_READ(int kind, void *data, Py_ssize_t index)
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch)
    bint Py_UNICODE_ISALNUM(Py_UCS4 ch)
    void PyErr_Clear()

cdef extern from "lm/word_index.hh" namespace "lm":
    ctypedef unsigned WordIndex

cdef extern from *:
    """
    #include <cstdint>
    #include <cstring>
    #include <string_view>
    #include <utility>
    #include <vector>
    #include "lm/virtual_interface.hh"

    #ifndef WEBPRUNE_KENLM_VERSION
    #define WEBPRUNE_KENLM_VERSION "unknown"
    #endif

    /* kenlm.Model's instance struct (python/kenlm.pyx: `model`, `path`, `vocab`, no cdef methods) */
    struct KenlmModelObject { PyObject_HEAD lm::base::Model *model; PyObject *path; const lm::base::Vocabulary *vocab; };

    static const size_t STATE_BYTES = 512;
    static inline bool kenlm_space(unsigned char c) { return c == ' ' || (c >= 9 && c <= 13); }  /* util::kSpaces */

    /* one vocabulary word in WordTable: its first 8 bytes kept here, so a lookup of a word of 8 bytes or fewer
       reads one slot and nothing else */
    struct WordSlot { uint64_t head; uint32_t len, at; lm::WordIndex content, boiler; };

    static inline uint64_t word_head(const char *s, size_t n) {
      uint64_t h = 0;
      memcpy(&h, s, n < 8 ? n : 8);
      return h;
    }

    /* the vocabulary as one open-addressing table (linear probing, at most half full): a lookup is one hash and,
       mostly, one slot, where a node-based map read a bucket, a node and the word's bytes apart */
    struct WordTable {
      std::vector<WordSlot> slots;  /* len 0: empty (no word is empty) */
      size_t mask = 0;
      std::string storage;

      static size_t hash(const char *s, size_t n) { return std::hash<std::string_view>()(std::string_view(s, n)); }

      void build(const Py_ssize_t *ends, Py_ssize_t count,
                 const std::vector<std::pair<lm::WordIndex, lm::WordIndex>> &index) {
        size_t size = 16;
        while (size < 2 * (size_t) count + 2) size <<= 1;
        slots.assign(size, WordSlot{0, 0, 0, 0, 0});
        mask = size - 1;
        Py_ssize_t start = 0;
        for (Py_ssize_t k = 0; k < count; k++) {
          const char *w = storage.data() + start;
          size_t n = ends[k] - start;
          if (n && !find(w, n)) {  /* (a repeated word keeps its first slot, as the map's emplace did) */
            size_t i = hash(w, n) & mask;
            while (slots[i].len) i = (i + 1) & mask;
            slots[i] = WordSlot{word_head(w, n), (uint32_t) n, (uint32_t) start, index[k].first, index[k].second};
          }
          start = ends[k];
        }
      }

      const WordSlot *find(const char *s, size_t n) const {
        uint64_t head = word_head(s, n);
        for (size_t i = hash(s, n) & mask;; i = (i + 1) & mask) {
          const WordSlot &slot = slots[i];
          if (!slot.len) return nullptr;
          if (slot.len == n && slot.head == head && (n <= 8 || !memcmp(storage.data() + slot.at + 8, s + 8, n - 8)))
            return &slot;
        }
      }
    };

    struct PairScorer {
      const lm::base::Model *content, *boiler;
      WordTable words;
      lm::WordIndex oov_content, oov_boiler;

      /* phase 1: the two word indices of each token of a single-line UTF-8 text, appended; returns the count */
      Py_ssize_t map(const char *s, size_t n, std::vector<lm::WordIndex> &wc, std::vector<lm::WordIndex> &wb) const {
        size_t i = 0, before = wc.size();
        while (i < n) {
          while (i < n && kenlm_space(s[i])) i++;
          if (i >= n) break;
          size_t start = i;
          while (i < n && !kenlm_space(s[i])) i++;
          const WordSlot *hit = words.find(s + start, i - start);
          wc.push_back(hit == nullptr ? oov_content : hit->content);
          wb.push_back(hit == nullptr ? oov_boiler : hit->boiler);
        }
        return wc.size() - before;
      }

      /* phase 2: the two log10 sums of a sentence's indices (ScoreSentence's float sums, </s> last) */
      void score(const lm::WordIndex *wc, const lm::WordIndex *wb, Py_ssize_t n, float *content_sum,
                 float *boiler_sum) const {
        alignas(16) unsigned char st[4][STATE_BYTES];
        void *c_in = st[0], *c_out = st[1], *b_in = st[2], *b_out = st[3];
        content->BeginSentenceWrite(c_in);
        boiler->BeginSentenceWrite(b_in);
        float c = 0.0f, b = 0.0f;
        for (Py_ssize_t k = 0; k < n; k++) {
          c += content->BaseScore(c_in, wc[k], c_out);
          std::swap(c_in, c_out);
          b += boiler->BaseScore(b_in, wb[k], b_out);
          std::swap(b_in, b_out);
        }
        c += content->BaseScore(c_in, content->BaseVocabulary().EndSentence(), c_out);
        b += boiler->BaseScore(b_in, boiler->BaseVocabulary().EndSentence(), b_out);
        *content_sum = c;
        *boiler_sum = b;
      }
    };

    static lm::base::Model *kenlm_model_of(PyObject *obj) { return ((KenlmModelObject *)obj)->model; }
    static bool kenlm_layout_ok(PyObject *obj, PyObject *path) {
      KenlmModelObject *m = (KenlmModelObject *)obj;
      return m->model != NULL && m->path == path && m->vocab == &m->model->BaseVocabulary()
             && m->model->StateSize() <= STATE_BYTES;
    }
    static lm::WordIndex kenlm_index(const lm::base::Model *m, const char *s, size_t n) {
      return m->BaseVocabulary().Index(StringPiece(s, n));
    }
    static void pair_add_word(PairScorer *p, const char *s, size_t n) { p->words.storage.append(s, n); }
    static void pair_index_words(PairScorer *p, const Py_ssize_t *ends, Py_ssize_t count) {
      /* every word of storage (complete now) mapped to its two indices */
      std::vector<std::pair<lm::WordIndex, lm::WordIndex>> index;
      index.reserve(count);
      const char *base = p->words.storage.data();
      Py_ssize_t start = 0;
      for (Py_ssize_t k = 0; k < count; k++) {
        index.emplace_back(kenlm_index(p->content, base + start, ends[k] - start),
                           kenlm_index(p->boiler, base + start, ends[k] - start));
        start = ends[k];
      }
      p->words.build(ends, count, index);
    }
    """
    const char *WEBPRUNE_KENLM_VERSION
    cppclass Model "lm::base::Model":
        pass
    cppclass PairScorer:
        const Model *content
        const Model *boiler
        WordIndex oov_content, oov_boiler
        Py_ssize_t map(const char *s, size_t n, vector[WordIndex] &wc, vector[WordIndex] &wb)
        void score(const WordIndex *wc, const WordIndex *wb, Py_ssize_t n, float *content_sum, float *boiler_sum)
    Model *kenlm_model_of(PyObject *obj)
    bint kenlm_layout_ok(PyObject *obj, PyObject *path)
    WordIndex kenlm_index(const Model *m, const char *s, size_t n)
    void pair_add_word(PairScorer *p, const char *s, size_t n)
    void pair_index_words(PairScorer *p, const Py_ssize_t *ends, Py_ssize_t count)

KENLM_VERSION = WEBPRUNE_KENLM_VERSION.decode()


cdef bint splits_alike(str text, const char *s, Py_ssize_t n):
    """Whether KenLM's split of these bytes is Python's ``text.split()``: no NUL (KenLM reads a C string), no
    whitespace outside ASCII's six (Python splits on U+001C-U+001F, U+0085, U+00A0, U+2000... too)."""
    cdef Py_ssize_t i
    cdef unsigned char c
    for i in range(n):
        c = <unsigned char> s[i]
        if c == 0 or 28 <= c <= 31:
            return False
    if PyUnicode_IS_ASCII(text):
        return True
    cdef int kind = PyUnicode_KIND(text)
    cdef void *data = PyUnicode_DATA(text)
    cdef Py_UCS4 u
    for i in range(len(text)):
        u = PyUnicode_READ(kind, data, i)
        if u >= 128 and Py_UNICODE_ISSPACE(u):
            return False
    return True


cdef bint has_word(str text):
    """``re.search(r"\\w", text)``: ``re``'s \\w is ``Py_UNICODE_ISALNUM`` or ``_``."""
    cdef int kind = PyUnicode_KIND(text)
    cdef void *data = PyUnicode_DATA(text)
    cdef Py_UCS4 u
    cdef Py_ssize_t i
    for i in range(len(text)):
        u = PyUnicode_READ(kind, data, i)
        if u == 95 or Py_UNICODE_ISALNUM(u):
            return True
    return False


cdef class CompiledPair:
    """Both models of one pair and its vocabulary, for ``score_many``."""
    cdef PairScorer scorer
    cdef object content, boiler  # the kenlm.Model objects: they own the C++ models

    def __init__(self, content, boiler, vocab, str oov):
        for model in (content, boiler):
            if type(model).__module__ != "kenlm" or type(model).__name__ != "Model" \
                    or not kenlm_layout_ok(<PyObject *> model, <PyObject *> model.path):
                raise ValueError("kenlm.Model does not have the layout this module was built for")
        self.content, self.boiler = content, boiler
        self.scorer.content = kenlm_model_of(<PyObject *> content)
        self.scorer.boiler = kenlm_model_of(<PyObject *> boiler)
        cdef bytes b = oov.encode()
        cdef vector[Py_ssize_t] ends
        cdef Py_ssize_t end = 0
        self.scorer.oov_content = kenlm_index(self.scorer.content, b, len(b))
        self.scorer.oov_boiler = kenlm_index(self.scorer.boiler, b, len(b))
        for word in sorted(vocab):
            b = word.encode()
            pair_add_word(&self.scorer, b, len(b))
            end += len(b)
            ends.push_back(end)
        if end >= 0xFFFFFFFF:  # (the word table keeps 32-bit offsets and lengths)
            raise ValueError("the vocabulary's words hold 4 GiB or more")
        pair_index_words(&self.scorer, ends.data(), ends.size())

    def score_many(self, list norms, double log2_10, fallback, bint words_only=False):
        """Each text's (boiler - content) log10 difference in bits per token; ``fallback(text)`` scores a text
        the compiled loop must not (see the module's docstring); with ``words_only`` a text without a word
        character (``has_word``) is None. All texts' tokens are mapped first, then scored: the vocabulary's
        and the models' memory are not read in turns (20% less time)."""
        cdef Py_ssize_t count = len(norms), k, n
        cdef const char *s
        cdef vector[WordIndex] wc, wb
        cdef vector[Py_ssize_t] starts  # text k's tokens: starts[k] .. the next start; -1: fallback, -2: None
        cdef float c, b
        cdef list out = [None] * count
        starts.reserve(count + 1)
        for norm in norms:
            if words_only and not has_word(norm):
                starts.push_back(-2)  # no word: None
                continue
            s = PyUnicode_AsUTF8AndSize(norm, &n)
            if s == NULL:
                PyErr_Clear()
                s = NULL
            elif not splits_alike(norm, s, n):
                s = NULL
            starts.push_back(-1 if s == NULL else <Py_ssize_t> wc.size())
            if s != NULL:
                self.scorer.map(s, n, wc, wb)
        starts.push_back(wc.size())
        for k in range(count):
            if starts[k] < 0:
                if starts[k] == -1:
                    out[k] = fallback(norms[k])
                continue
            n = next_start(starts, k) - starts[k]
            self.scorer.score(wc.data() + starts[k], wb.data() + starts[k], n, &c, &b)
            out[k] = (<double> b - <double> c) * log2_10 / <double> (n + 1)
        return out


cdef inline Py_ssize_t next_start(vector[Py_ssize_t] &starts, Py_ssize_t k):
    """Where sentence k's tokens end: the next start that is not a text's left out (negative)."""
    k += 1
    while starts[k] < 0:
        k += 1
    return starts[k]
