"""Records passed between stages. Stages speak in these, never in rows or dicts.

One module per concept (competition, describe, outline, translation, review, llm_call, release, results); every
record is importable from here, `from curation.records import Competition`, so callers need not know which module
holds it.
"""

from curation.records.base import Record
from curation.records.competition import (DATA_TYPES, FIELDS, SLUG, Competition, Field_, IngestedCompetition,
                                          Notebook, Problem, StageState, StageStatus)
from curation.records.describe import (CRITERIA, Criterion, CriterionReason, Description, DescriptionRound,
                                       DomainTag, Grade, GradeReport, LintFinding)
from curation.records.llm_call import CostLine, LLMCall
from curation.records.outline import (JUDGE_CRITERIA, JUDGE_POINTS, SECTION_TITLES, SECTIONS, CandidateVerdict,
                                      JudgedCriterion, Outline, OutlineScore, OutlineSource)
from curation.records.release import Release
from curation.records.results import ERROR_CLASSES, ErrorClass, RunResult
from curation.records.review import (RUBRIC_SCORES, VERDICTS, FinalText, Provenance, PushedRow, ReviewItem,
                                     ReviewStats, RubricScore, RubricStats, RubricValue, Verdict, VerdictText)
from curation.records.translation import CheckResult, Translation, TranslationTally

__all__ = [
    "Record",
    "DATA_TYPES", "FIELDS", "SLUG", "Competition", "Field_", "IngestedCompetition", "Notebook", "Problem",
    "StageState", "StageStatus",
    "CRITERIA", "Criterion", "CriterionReason", "Description", "DescriptionRound", "DomainTag", "Grade",
    "GradeReport", "LintFinding",
    "CostLine", "LLMCall",
    "JUDGE_CRITERIA", "JUDGE_POINTS", "SECTION_TITLES", "SECTIONS", "CandidateVerdict", "JudgedCriterion", "Outline",
    "OutlineScore", "OutlineSource",
    "Release",
    "ERROR_CLASSES", "ErrorClass", "RunResult",
    "RUBRIC_SCORES", "VERDICTS", "FinalText", "Provenance", "PushedRow", "ReviewItem", "ReviewStats", "RubricScore",
    "RubricStats", "RubricValue", "Verdict", "VerdictText",
    "CheckResult", "Translation", "TranslationTally",
]
