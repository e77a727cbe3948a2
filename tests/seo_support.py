"""Reading what search engines read, in tests: sitemaps, validated against the sitemaps.org
schemas kept in tests/xsd/, and a page's <head> (its meta tags and canonical link)."""

from pathlib import Path

from django.db import connection
from django.test.utils import CaptureQueriesContext
from lxml import etree, html

XSD = Path(__file__).resolve().parent / "xsd"
NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}


def schema(name):
    return etree.XMLSchema(etree.parse(str(XSD / name)))


def valid(content, xsd):
    """The document, parsed, after failing with the schema's own words if it is not valid."""
    document = etree.fromstring(content)
    checker = schema(xsd)
    assert checker.validate(document), checker.error_log
    return document


def selects(client, url):
    """The SELECTs a GET of `url` runs (the request's savepoints are no reads)."""
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("SELECT")]


def locs(document):
    return [loc.text for loc in document.iterfind(".//s:loc", NS)]


def head_of(content):
    return html.fromstring(content).find("head")


def meta_of(head, name):
    """The content of the one <meta name=...> or <meta property=...> so named, or None."""
    found = head.xpath(f"meta[@name='{name}' or @property='{name}']/@content")
    assert len(found) <= 1, f"{name} twice"
    return found[0] if found else None


def canonical_of(head):
    found = head.xpath("link[@rel='canonical']/@href")
    assert len(found) <= 1, "two canonical links"
    return found[0] if found else None
