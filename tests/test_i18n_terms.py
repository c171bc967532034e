"""The call (R3: each seat's *play* or *pass*) and the claim (R14: showing the Old cards to end
the deal) are two words in every language, each the glossary's, in every message of the catalogue
(``play``, ``review``, ``advise``, the web table): a message about the call never uses the claim's
word, nor the other way round."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lukfu_solver.i18n import _, pgettext, term, using_language
from tools.i18n_catalogues import load

ROOT = Path(__file__).resolve().parent.parent
CALL = re.compile(r"\bcall(?:s|ing|ed)?\b", re.I)
CLAIM = re.compile(r"\bclaim", re.I)
NOT_THE_BID = ("call reset()", "A close call")
"""English uses *call* in other senses too: a function called, a decision hard to make."""
WORDS = {
    # the call's word, the claim's word; what a message about the other one may not say
    "ru": ("объявлени", "заявк", r"заяв", r"объявл"),
    "hi": ("बोली", "दावा", r"दाव|कॉल(?!र)", r"बोली|बोलि"),  # कॉलर (the caller) is not the call
    "es": ("declaración", "reclamación", r"reclam|llamada", r"declar|llamada"),
}


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_the_glossary_has_a_word_for_the_call_and_another_for_the_claim(lang: str) -> None:
    call, claim, _not_in_call, _not_in_claim = WORDS[lang]
    rows = (ROOT / "docs" / f"glossary.{lang}.md").read_text(encoding="utf-8").splitlines()
    call_row = next(r for r in rows if r.startswith("| call (the bid, R3) |"))
    claim_row = next(r for r in rows if r.startswith("| claim (noun / verb; R14) |"))
    assert call in call_row.split("|")[2] and claim in claim_row.split("|")[2]


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_the_review_and_the_table_name_the_call_and_the_claim_apart(lang: str) -> None:
    call, claim, _not_in_call, _not_in_claim = WORDS[lang]
    with using_language(lang):
        for text in (pgettext("column", "call"), _("The call"), _("0: after the call")):
            assert call.lower() in text.lower(), text
        for text in (term("claim"), _("{trick}: the claim").format(trick=11)):
            assert claim.lower() in text.lower(), text


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_no_message_about_the_call_says_claim_nor_the_other_way_round(lang: str) -> None:
    _call, _claim, not_in_call, not_in_claim = WORDS[lang]
    wrong = []
    for entry in load(lang):
        english = " ".join(filter(None, [entry.msgid, entry.msgid_plural]))
        if not entry.msgid or any(s in english for s in NOT_THE_BID):
            continue
        about_call, about_claim = bool(CALL.search(english)), bool(CLAIM.search(english))
        for form in entry.msgstr:
            if about_call and not about_claim and re.search(not_in_call, form):
                wrong.append(("call", entry.msgid[:60], form[:80]))
            if about_claim and not about_call and re.search(not_in_claim, form):
                wrong.append(("claim", entry.msgid[:60], form[:80]))
    assert not wrong, wrong
