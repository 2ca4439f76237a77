"""Forum text as readers see it: Markdown through two real renderers (markdown-it-py,
CommonMark with tables and strikethrough; Python-Markdown) and BBCode through the `bbcode`
package, then the visible text read back out of the HTML they make.

Names are free text, so a test plays with names that are markup in one language or
another; what a reader sees must be the name as typed, and no name may become a tag."""

from dataclasses import dataclass, field
from html.parser import HTMLParser

import bbcode
import markdown
from markdown_it import MarkdownIt

# hostile names, each at most 40 characters (referee/engine/names.py)
NAMES = [
    "[url=https://evil.example]x[/url]",
    "**Bo** _Cy_ <img src=x onerror=alert(1)>",
    "# [b]b[/b] [x](//e.example) ~~s~~",
    "1. \\*Di\\ &amp; &lt;i&gt; `c` > [*]|{#i}!",
]
# tags a renderer may make of our own markup; none may come from a name
OURS = {"h2", "p", "strong", "ul", "li", "img", "span", "br"}


def commonmark(text: str) -> str:
    """Markdown as CommonMark renders it (markdown-it-py), GFM tables and ~~ on."""
    return MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(text)


def python_markdown(text: str) -> str:
    """Markdown as Python-Markdown renders it (many forums and wikis use it)."""
    return markdown.markdown(text)


def bbcode_html(text: str) -> str:
    """BBCode as the `bbcode` package renders it, with [size] and [img] as forums have
    them; its own linking of bare URLs and typographic replacements off (they are a
    forum's features, not BBCode)."""
    parser = bbcode.Parser(replace_links=False, replace_cosmetic=False)
    parser.add_formatter(
        "size", lambda tag, value, options, parent, context: f"<span>{value}</span>"
    )
    parser.add_formatter(
        "img",
        lambda tag, value, *_: f'<img src="{value}">',
        replace_links=False,
        replace_cosmetic=False,
        render_embedded=False,
    )
    for _, options in parser.recognized_tags.values():
        options.replace_links = options.replace_cosmetic = False
    # the empty [i][/i] after a typed `[` (referee/posts/summary.py) shows nothing
    return parser.format(text).replace("<em></em>", "")


RENDERERS = {"commonmark": commonmark, "python-markdown": python_markdown, "bbcode": bbcode_html}
FORMAT_OF = {"commonmark": "markdown", "python-markdown": "markdown", "bbcode": "bbcode"}


@dataclass
class Seen:
    """What a reader sees of rendered HTML: the text of each list item, the tags inside
    list items, every tag, the images (their sources, and whether inside a list item)."""

    items: list[str] = field(default_factory=list)
    inside_items: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    images: list[tuple[str, bool]] = field(default_factory=list)
    text: str = ""


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.seen = Seen()
        self.depth = 0
        self.item: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.seen.tags.append(tag)
        if self.depth:
            self.seen.inside_items.append(tag)
        if tag == "img":
            self.seen.images.append((dict(attrs).get("src") or "", bool(self.depth)))
        if tag == "li":
            if self.depth:
                self.seen.items.append(_spaced("".join(self.item)))
            self.depth, self.item = 1, []

    def handle_endtag(self, tag):
        if tag == "li" and self.depth:
            self.seen.items.append(_spaced("".join(self.item)))
            self.depth, self.item = 0, []

    def handle_data(self, data):
        self.seen.text += data
        if self.depth:
            self.item.append(data)


def seen(rendered: str) -> Seen:
    """What a reader sees of this HTML."""
    reader = _Reader()
    reader.feed(rendered)
    reader.close()
    if reader.depth:  # an item left open (BBCode's [*] without [list] is no item)
        reader.seen.items.append(_spaced("".join(reader.item)))
    reader.seen.text = _spaced(reader.seen.text)
    return reader.seen


def _spaced(text: str) -> str:
    """Text as it reads: runs of white space one space, a zero-width space nothing."""
    return " ".join(text.replace("\u200b", "").split())


def plain(line: str) -> str:
    """A line of a summary as a reader should see it."""
    return _spaced(line)
