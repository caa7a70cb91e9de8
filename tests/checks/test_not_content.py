"""Answers that are not content, class by class, against the hardest real texts that must pass.

Each junk class is caught in full, and none of the real texts (task descriptions and translations that talk
about JSON, schemas, apologies, placeholders or templates in their own right) is taken for junk.
"""

from __future__ import annotations

import pytest

from curation.checks.not_content import not_content

JUNK = {
    "echoed instructions": [
        "That answer could not be read as GeneratedDescription: description: Field required. Reply again with only "
        "the JSON object, complete and matching the schema.",
        "Reply again with only the JSON object.",
        "Your previous translation failed these automatic checks: placeholders.",
        "Answer with the translation only: no introduction, no notes.",
    ],
    "JSON or schema": [
        '{"description": "Predict the survival of each passenger."}',
        '["Predict the survival of each passenger."]',
        'Here it is: {"type": "object", "properties": {"description": {"type": "string"}}}',
        '"required": ["analysis", "structure", "description"]',
    ],
    "refusal or apology": [
        "I'm sorry, but I can't help with that request.",
        "As an AI language model, I cannot see the notebooks you mention.",
        "I apologize for the confusion. Here is the description again.",
        "I am unable to translate this text.",
        "Извините, но I cannot translate this text into Kazakh.",
    ],
    "placeholder": [
        "<description>",
        "<your description here>",
        "[Insert the task description]",
        "{{ description }}",
        "Lorem ipsum dolor sit amet.",
        "TODO",
    ],
}

CONTENT = [  # (text, English source it was written from; "" for descriptions)
    ("Predict whether each tweet describes a real disaster; each record carries the tweet text, a keyword and the "
     "location it was sent from.", ""),
    ("Classify each support ticket, stored as a JSON object with a subject and a body, into one of ten queues.", ""),
    ("The schema of the training table lists one row per transaction with its amount and merchant category.", ""),
    ("Predict whether a customer message is an apology, a complaint or a question.", ""),
    ("Каждая запись — JSON-объект вида {\"id\": 1, \"text\": \"...\"}; предскажите метку.",
     'Each record is a JSON object like {"id": 1, "text": "..."}; predict the label.'),
    ("Твиты вроде «I'm sorry, but the bridge is closed» отмечены как сообщения о бедствии.",
     "Tweets such as \"I'm sorry, but the bridge is closed\" are labelled as disaster reports."),
    ("Файл содержит теги вида <description> в исходном HTML-коде страниц.",
     "The file holds tags like <description> in the pages' original HTML."),
    ("Болжау файлы `id` және `target` бағандарынан тұрады.", "The predictions file has the columns `id` and `target`."),
]


@pytest.mark.parametrize("kind", JUNK)
def test_every_answer_of_each_junk_class_is_caught(kind):
    missed = [text for text in JUNK[kind] if not_content(text) is None]
    assert missed == [], f"{kind}: {len(JUNK[kind]) - len(missed)}/{len(JUNK[kind])} caught"


def test_no_real_description_or_translation_is_taken_for_junk():
    flagged = [(text, not_content(text, source)) for text, source in CONTENT if not_content(text, source)]
    assert flagged == []


def test_an_echo_of_the_prompt_is_caught_but_not_a_retry_that_keeps_the_text():
    instructions = ["You translate texts of a machine-learning benchmark from English into Kazakh. The readers are "
                    "data scientists whose first language is Kazakh."]
    echo = "You translate texts of a machine-learning benchmark from English into Kazakh."
    assert "repeats the prompt's instructions" in not_content(echo, instructions=instructions)
    assert not_content("Әр жолаушы үшін апаттан аман қалғанын болжаңыз.", instructions=instructions) is None


def test_none_of_the_hand_written_and_seeded_texts_is_taken_for_junk():
    """The checks' own test texts: 14 English sources, their 168 translations and every correct text of the
    seeded suite (12 languages)."""
    import json
    from pathlib import Path

    folder = Path(__file__).parent
    sentences = json.loads((folder / "sentences.json").read_text(encoding="utf-8"))
    sources = sentences["sources"]
    texts = [(text, "") for text in sources.values()]
    texts += [(text, sources.get(key, "")) for by_key in sentences["translations"].values() for key, text in by_key.items()]
    for path in sorted((folder / "seeded").glob("*.json")):
        texts += [(text, "") for text in json.loads(path.read_text(encoding="utf-8")).get("texts", {}).values()]
    assert len(texts) > 300
    assert [(text[:60], not_content(text, source)) for text, source in texts if not_content(text, source)] == []
