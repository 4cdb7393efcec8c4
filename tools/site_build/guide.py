"""Step 9, the player's guide: ``docs/guide.md`` and ``docs/guide.ja.md`` rendered to
``public/guide.html`` and ``public/guide.ja.html`` (Python-Markdown, pinned in pyproject.toml), the
pages the page's footer links to in its language. Each is a standalone page (its styles inline,
light and dark) that works offline (precached). Links between the two guides (``guide*.md``) point
to their pages; a heading's anchor is GitHub's (lowercase, punctuation dropped, spaces as hyphens),
so the docs' own links work on the site too.
"""

import html
import re
from typing import Final

import markdown

from .common import PUBLIC, ROOT, BuildError, write_if_changed

GUIDES: Final = {"guide.html": ("docs/guide.md", "en"), "guide.ja.html": ("docs/guide.ja.md", "ja")}
"""Each guide page of ``public/``: its source and language."""

STYLE: Final = """
:root { color-scheme: light dark; --fg: #1c2430; --bg: #ffffff; --link: #0b5cad; --rule: #d5dbe3; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e9ee; --bg: #14181e; --link: #8cc2ff; --rule: #39414d; } }
body { margin: 0 auto; max-width: 42rem; padding: 1rem 1rem 3rem; font: 1rem/1.6 system-ui, sans-serif;
  color: var(--fg); background: var(--bg); overflow-wrap: anywhere; }
a { color: var(--link); }
h1 { font-size: 1.6rem; line-height: 1.3; }
h2 { font-size: 1.25rem; margin-top: 2rem; padding-top: 0.5rem; border-top: 1px solid var(--rule); }
li { margin: 0.25rem 0; }
nav { margin-bottom: 1rem; }
""".strip()


def anchor(text: str, separator: str = "-") -> str:
    """GitHub's anchor of a heading: lowercase, all but letters, digits, spaces, hyphens and
    underscores dropped, spaces as hyphens ("The coach (Why?)" → "the-coach-why")."""
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", separator)


CJK: Final = "\u3000-\u30ff\u3400-\u9fff\uff00-\uffef"
"""Japanese characters (punctuation, kana, kanji, full-width forms)."""
JOINED_LINE: Final = re.compile(rf"(?<=[{CJK}])\n[ \t]*(?=\*{{0,2}}[{CJK}])")
"""A line break inside a Japanese sentence: Markdown would make it a space, which Japanese has not."""


def page(source: str, language: str) -> bytes:
    """The guide page of the Markdown ``source`` in ``language`` (a Japanese sentence's line breaks
    joined without a space)."""
    body = markdown.markdown(
        JOINED_LINE.sub("", source),
        extensions=["toc", "sane_lists"],
        extension_configs={"toc": {"slugify": anchor, "permalink": False}},
        output_format="html",
    )
    body = re.sub(r'href="(guide(?:\.ja)?)\.md(#[^"]*)?"', lambda m: f'href="{m[1]}.html{m[2] or ""}"', body)
    title = re.search(r"<h1[^>]*>(.*?)</h1>", body, re.S)
    if title is None:
        raise BuildError("the guide has no title (a first-level heading)")
    name = html.unescape(re.sub(r"<[^>]+>", "", title[1]))
    back = "アドバイスへ戻る" if language == "ja" else "Back to the advisor"
    return (
        "<!doctype html>\n"
        f'<html lang="{language}">\n<head>\n<meta charset="utf-8" />\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1" />\n'
        f"<title>{html.escape(name)}</title>\n<style>\n{STYLE}\n</style>\n</head>\n<body>\n"
        f'<nav><a href="./">{back}</a></nav>\n<main>\n{body}\n</main>\n</body>\n</html>\n'
    ).encode()


def write_guides() -> None:
    for name, (source, language) in GUIDES.items():
        path = ROOT / source
        if not path.is_file():
            raise BuildError(f"{source} is missing: the page's footer links to its guide")
        write_if_changed(PUBLIC / name, page(path.read_text(encoding="utf-8"), language))
