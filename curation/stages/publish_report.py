"""What `curate status` shows for publish: per language, rows ready for a release and rows the gates hold back."""

from __future__ import annotations

from curation.release.gates import find_offenders, held_back
from curation.release.inputs import ReleaseInputs
from curation.status import Section, StatusContext, register_section


@register_section
def _release_readiness(context: StatusContext) -> Section | None:
    inputs = ReleaseInputs.from_store(context.store, context.settings)
    if not inputs.competitions:
        return None
    offenders = find_offenders(inputs, context.settings)
    held = held_back(offenders, inputs.languages)
    asked = set(context.languages) | {inputs.source_language}
    rows = [[code, len(inputs.competitions) - len(held.get(code, {})), len(held.get(code, {}))]
            for code in inputs.languages if code in asked]
    latest = context.store.releases()
    note = (f"latest release: v{latest[-1].version} ({latest[-1].date}) to {latest[-1].target}" if latest
            else "no release yet")
    if offenders:
        note += f"; {len(offenders)} problem{'' if len(offenders) == 1 else 's'} block `curate publish` (it lists them)"
    return Section("Release readiness", ["language", "ready", "held back"], rows=rows, note=note)
