"""The translation checks of an asyncio run, off its event loop: in a process of their own, their models loaded
ahead of time.

Why: the checks are CPU work (sentence embeddings and language ID, tens to hundreds of milliseconds a text), and
lingua holds the GIL for the seconds it takes to load its models. In the process of the run they stall its event
loop, and a stalled loop sends no request: the rate limiter's slots pass unused. In a second process they use the
machine's other core and never hold the run's GIL; a translate run sends its requests while earlier answers are
checked. One process: the checks of a run go through it in order, and every model is loaded once.

`warm_up` starts that process and has it load lingua's models of a language's script and its sentence encoder. The
translate stage calls it as a language's first text goes out, so the models load while that request is answered,
and only for languages with something to translate: a rerun with nothing pending starts no process at all (it used
to start one and load every target's models, 0.7 GB, before knowing).

If the process dies (killed, out of memory), the check that was waiting runs in a thread of the run's own process
and the next one starts a new process: a lost worker costs time, never a result.
"""

from __future__ import annotations

import asyncio
import atexit
import ctypes
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from functools import partial

from curation.checks import adequacy, language_id
from curation.checks.translation import check_translation
from curation.config import Settings
from curation.records import CheckResult

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_warmed: set[str] = set()  # the languages whose models the current checks' process was asked to load
_M_ARENA_MAX = -8  # glibc's malloc.h


def _worker_setup(run_pid: int) -> None:
    """In the checks' process, before its first job: one heap, and end when the run is gone (Ctrl-C it ignores from
    its start)."""
    _one_heap()
    # A run killed by a signal runs no exit hook, and a worker busy loading models (seconds) does not notice its
    # closed pipe: without this it would live on, holding its models' memory (~500 MB), one per killed run.
    threading.Thread(target=_end_with, args=(run_pid,), name="end-with-run", daemon=True).start()


def _one_heap() -> None:
    """One malloc arena for the whole process (glibc's mallopt; elsewhere nothing happens), set before any thread.

    lingua reads a language's model files in threads of its own, and each thread got an arena of its own: what they
    freed stayed spread over them, 15-25 MB more (varying from one run to the next) once the twelve default targets'
    models had loaded. Loading is no slower."""
    try:
        ctypes.CDLL(None).mallopt(_M_ARENA_MAX, 1)
    except (OSError, AttributeError):  # not glibc
        pass


def _end_with(run_pid: int, every: float = 0.5) -> None:
    """Exit this process as soon as the run that started it is no longer its parent (it died; we were re-parented)."""
    while os.getppid() == run_pid:
        time.sleep(every)
    os._exit(0)


def _checks_process() -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            # spawn: a fresh interpreter, never a fork of a process with threads (the run's SDK clients have some).
            _pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_worker_setup, initargs=(os.getpid(),))
            with _ctrl_c_ignored():
                _pool.submit(os.getpid)  # the worker starts with this first job: now, ignoring Ctrl-C
        return _pool


@contextmanager
def _ctrl_c_ignored() -> Iterator[None]:
    """While the checks' process is started: Ctrl-C ignored, which is the one setting it inherits.

    Ctrl-C reaches the whole process group, the checks' process too. The run handles it (and then ends that
    process); the worker must not die of it with a traceback of its own, and for the second or so it spends importing
    before its initializer runs it could not handle it. A worker started with SIGINT ignored keeps it ignored (Python
    turns SIGINT into KeyboardInterrupt only when it starts with the default). A Ctrl-C in the milliseconds of the
    start is lost; the next one stops the run. Only the main thread may set a handler: elsewhere (a test's thread)
    the worker starts as it is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _stop() -> None:
    """End the checks' process at exit without waiting for a model load or a check it may be busy with."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
        _warmed.clear()
    if pool is not None:
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()
        # Wait for the pool's manager thread, which sees its worker gone at once and closes its pipe. Not waiting
        # let it close that pipe while concurrent.futures' exit hook wrote to it: "Exception ignored in
        # threading._shutdown ... OSError: [Errno 9] Bad file descriptor" after one Ctrl-C in three.
        pool.shutdown(wait=True, cancel_futures=True)


# Before concurrent.futures' own exit hook, which would wait for the busy worker: threading's exit hooks run last
# registered first (registered at import, after concurrent.futures registered its own). atexit if that API is gone.
getattr(threading, "_register_atexit", atexit.register)(_stop)


async def check_translation_off_loop(source_text: str, translation: str, language: str, settings: Settings,
                                     names: Iterable[str] = ()) -> list[CheckResult]:
    """check_translation in the checks' process, awaited without blocking the event loop."""
    job = partial(check_translation, source_text, translation, language, settings, tuple(names))
    pool = _checks_process()
    try:
        return await asyncio.wrap_future(pool.submit(job))
    except BrokenProcessPool:
        global _pool
        with _lock:
            if _pool is pool:
                _pool = None  # the next check starts a new process (which loads as the checks need)
                _warmed.clear()
        return await asyncio.to_thread(job)


def warm_up(languages: Iterable[str], settings: Settings) -> None:
    """Start the checks' process loading the models the checks of `languages` use (those not asked for already);
    returns at once."""
    with _lock:
        languages = tuple(code for code in dict.fromkeys(languages) if code not in _warmed)
        _warmed.update(languages)
    if not languages:
        return
    names = {adequacy.encoder_name(code) for code in languages} - {None} if settings.translate.adequacy else set()
    # e5's languages have the sentences USE is sure of paired by USE first (settling.use_sure)
    encoders = sorted(names | ({"use"} if "e5" in names else set()))
    _checks_process().submit(_load, languages, encoders)


def _load(languages: tuple[str, ...], encoders: list[str]) -> None:
    """In the checks' process: lingua's models of the languages' scripts, then each sentence encoder with one
    sentence (USE reads its weights on its first call)."""
    try:
        language_id.preload(languages)
        _give_back_freed_memory()  # lingua's read buffers (80 MB), before the encoders' weights come in
        for name in encoders:
            adequacy.model(name)(["warm up"])
    except Exception:  # noqa: BLE001 - a model that does not load is reported by the check that needs it
        pass
    _give_back_freed_memory()


def _give_back_freed_memory() -> None:
    """Return the C heap's free pages to the system (glibc's malloc_trim; elsewhere nothing happens).

    lingua parses a language's model files into buffers it frees once the models are built, and the encoders read
    their weights through temporary arrays: freed, but kept by the allocator (10 MB after the twelve default
    targets' models had loaded one language at a time, 50-150 MB when they loaded a script at a time)."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):  # not glibc
        pass
