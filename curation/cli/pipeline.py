"""`curate run`'s describe, tag, translate, review push (and outline, with [outline] enabled) as one pipeline
(curation/stages/pipeline.py) on one client: what each stage reports, its confirmations and its exit codes are
those of the stage run alone.

Review sheets are written as soon as their texts are final (the rubric sheets once describe, and outline when it
runs, have ended, a language's sheets once its translations have), in a thread of their own with a store connection
of its own, so the run keeps sending requests while they are written.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from curation.cli.base import fail, interrupted, open_store, say
from curation.cli.confirm import confirm_redo
from curation.cli.content import describe_report, tag_report, translate_report
from curation.cli.llm import PIPELINE_ROLES, cannot_run, idle, print_summaries, stage_progress
from curation.cli.outline import ROLES as OUTLINE_ROLES, outline_report, outline_steps
from curation.cli.review import has_items, show_pushes
from curation.config import Settings
from curation.store import Store, StoreError


def run_pipeline(settings: Settings, targets: list[str], push_languages: list[str] | None, backend: str | None,
                 yes: bool, redo_reviewed: bool, max_cost: float | None) -> list[str]:
    """Describe, tag, translate into `targets` and push the review sheets of `push_languages` (None: every
    language with something to review); `redo_reviewed` as on describe and translate. Returns the names of the
    stages left unfinished."""
    from curation.llm import LLM, LLMConfigError
    from curation.prompts import PromptError
    from curation.review.backends import backend_for
    from curation.review.sheet import ReviewError
    from curation.stages.describe import DescribeStage
    from curation.stages.pipeline import Pipeline, Step
    from curation.stages.redo import describe_redo, translate_redo
    from curation.stages.tag import TagStage
    from curation.stages.translate import TranslateStage

    source = settings.project.source_language
    with open_store(settings) as store:
        try:
            describe = DescribeStage(settings, redo_reviewed=redo_reviewed)
            tag = TagStage(settings)
            translates = [TranslateStage(settings, code, redo_reviewed=redo_reviewed) for code in targets]
            outlines = outline_steps(settings) if settings.outline.enabled else []
        except PromptError as error:
            raise fail(str(error)) from None
        confirm_redo(describe_redo(store, settings, describe), yes)
        confirm_redo(translate_redo(store, settings, translates), yes)
        steps = [Step(describe, logged_as="describe"), Step(tag, after=(describe.name,), logged_as="tag"),
                 *(Step(stage, after=(describe.name, tag.name), logged_as="translate") for stage in translates),
                 *outlines]
        # The rubric sheets once describe (and outline, whose column they have) has ended, each language's sheets once
        # its translations have; the backend is built first, so an unknown name or missing credentials stop the run
        # before anything is paid for.
        texts_in = {describe.name: source, **{stage.name: stage.language for stage in translates},
                    **({outlines[0].stage.name: source} if outlines else {})}
        try:
            sheets = SheetPusher(settings, texts_in, push_languages, backend_for(settings, backend))
        except ReviewError as error:
            raise fail(str(error)) from None

        async def run(progress):
            async with LLM(settings, store, max_cost=max_cost, stage="run") as llm:
                progress.watch(llm)
                return await Pipeline(store, settings, llm, steps, progress=progress, finished=sheets.finished).run()

        try:
            with sheets, stage_progress("describe · tag · translate") as progress:
                runs = asyncio.run(run(progress))
        except (LLMConfigError, PromptError) as error:
            raise cannot_run(error, settings, PIPELINE_ROLES + (OUTLINE_ROLES if outlines else ())) from None
        except StoreError as error:
            raise fail(str(error)) from None
        except KeyboardInterrupt:
            raise interrupted() from None
        summaries = {stage.name: summary for stage, summary in runs}
        unfinished = []
        resting = idle(summaries[describe.name]) and idle(summaries[tag.name])
        if resting:  # a rerun with nothing to describe or tag: one line for both
            say("describe, tag: nothing to do")
        else:
            print_summaries([summaries[describe.name]])
        describe_report(store, settings, describe)
        if not summaries[describe.name].complete:
            unfinished.append("describe")
        if not resting:
            print_summaries([summaries[tag.name]])
        tag_report(store, tag)
        if not summaries[tag.name].complete:
            unfinished.append("tag")
        if translates and not translate_report(store, [(stage, summaries[stage.name]) for stage in translates], False):
            unfinished.append("translate")
        if outlines and not outline_report(store, [(step.stage, summaries[step.stage.name]) for step in outlines]):
            unfinished.append("outline")
        if not sheets.report():
            unfinished.append("review push")
    return unfinished


class SheetPusher:
    """Pushes each language's review sheets when its stage has ended, one language at a time in a thread of its own
    (writing workbooks is seconds of CPU the event loop must not wait for)."""

    def __init__(self, settings: Settings, texts_in: dict[str, str], languages: list[str] | None, backend):
        self.settings, self.texts_in, self.languages, self.backend = settings, texts_in, languages, backend
        self.pushed: list[tuple[str, object]] = []  # (language, PushReport or the error it raised)
        self.ended: set[str] = set()  # the stages that have ended
        self.stopped: Exception | None = None  # a folder that cannot take the workbooks: no language is pushed after it
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="review-push")
        self._store: Store | None = None

    def __enter__(self) -> SheetPusher:
        return self

    def __exit__(self, kind, *_) -> None:
        self._thread.shutdown(wait=True, cancel_futures=kind is not None)  # stopped (Ctrl-C): no more pushes
        if self._store is not None:
            self._store.close()

    def finished(self, stage, summary):
        """The pipeline's hook: the language this stage's texts are in, pushed in the thread (awaitable) once every
        stage writing texts in that language has ended."""
        self.ended.add(stage.name)
        language = self.texts_in.get(stage.name)
        if language is None or (self.languages is not None and language not in self.languages):
            return None
        if any(other not in self.ended for other, written in self.texts_in.items() if written == language):
            return None
        return asyncio.get_running_loop().run_in_executor(self._thread, self._push, language)

    def _push(self, language: str) -> None:
        """One language's sheets; any problem is that language's, reported with the others at the end."""
        from curation.output_folders import FolderError
        from curation.review.push import push
        from curation.review.sheet import ReviewError
        from curation.excerpt import unexpected

        if self.stopped is not None:
            return
        try:
            if self._store is None:  # the thread's own connection: SQLite connections are not shared across threads
                self._store = Store(self.settings.path("store"), root=self.settings.root)
            if self.languages is None and not has_items(self._store, self.settings, language):
                return
            self.pushed.append((language, push(self._store, self.settings, language, self.backend)))
        except ReviewError as error:  # one language's problem does not stop the others
            self.pushed.append((language, error))
        except FolderError as error:  # but a full or unwritable folder would stop each of them the same way
            self.stopped = error
        except Exception as error:  # noqa: BLE001 - nor does an odd one (a file that cannot be written)
            self.pushed.append((language, RuntimeError(f"{language}: {unexpected(error)}")))

    def report(self) -> bool:
        """Print what was pushed, as `curate review push` does; whether every language was pushed. A folder that
        could not take the workbooks ends the command as it ends `curate review push` (one line, exit 2)."""
        if not self.pushed and self.stopped is None:
            say("nothing to review yet: no descriptions or translations in the store; run `curate run` first")
            return True
        order = {code: place for place, code in enumerate(self.settings.project.languages)}
        shown = show_pushes(sorted(self.pushed, key=lambda pushed: order.get(pushed[0], len(order))), False)
        if self.stopped is not None:
            raise fail(str(self.stopped))
        return shown
