#!/usr/bin/env python3
"""Strict checks of an HTML page ptx-opt writes (--analyze=html, and the
index.html of ptx-nvcc --ptxopt-report), for tests:

    check_html.py PAGE.html [--json REPORT.json] [--index]

- well formed: a doctype, <html lang>, <meta charset="utf-8">, a <title>;
  every element other than a void one closed explicitly and in order;
  entity references known to HTML5; unique ids; every href="#x" names an id;
- self-contained: no attribute (href, src, action, ...) naming anything but
  a fragment or, for --index, a relative .html file in the same folder; no
  <link>, <img>, <iframe>, <object>, <embed>, <base>; <script> only as
  type="application/json" data; no url( or @import in a style;
- with --json (the `ptx-opt --analyze=json` report of the same PTX): every
  global access of every kernel appears as an element id="k<K>-i<I>" whose
  class names its verdict ("v-uncoalesced"), and a link to it; the coverage
  data block (<script id="ptx-opt-coverage">) equals the JSON report's
  coverage counts, per kernel and in total.

Prints "html ok: ..." and exits 0, or prints each problem and exits 1.
"""
import argparse
import html.entities
import json
import os
import re
import sys
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
FORBIDDEN = {"link", "img", "iframe", "object", "embed", "base", "frame", "frameset", "applet", "audio", "video",
             "source"}
URL_ATTRS = {"href", "src", "action", "formaction", "data", "poster", "srcset", "background", "cite", "manifest"}


class Checker(HTMLParser):
    def __init__(self, index):
        super().__init__(convert_charrefs=False)
        self.index = index
        self.errors = []
        self.stack = []
        self.ids = {}  # id -> (tag, class)
        self.links = []
        self.doctype = False
        self.saw = set()
        self.data_blocks = {}
        self.in_script = None
        self.in_style = False
        self.title = ""
        self.in_title = False

    def err(self, msg):
        line, col = self.getpos()
        self.errors.append("%d:%d: %s" % (line, col + 1, msg))

    def handle_decl(self, decl):
        if decl.lower() == "doctype html":
            self.doctype = True
        else:
            self.err("unexpected declaration <!%s>" % decl)

    def handle_starttag(self, tag, attrs):
        self.saw.add(tag)
        a = dict(attrs)
        if len(a) != len(attrs):
            self.err("<%s> repeats an attribute" % tag)
        if tag in FORBIDDEN:
            self.err("<%s> loads or embeds a resource" % tag)
        if tag == "html" and not a.get("lang"):
            self.err("<html> without lang")
        if tag == "meta" and "charset" in a and a["charset"].lower() != "utf-8":
            self.err("charset is not utf-8")
        if tag == "script":
            if a.get("type") != "application/json" or "src" in a:
                self.err("a <script> that would run or load something")
            self.in_script = a.get("id", "")
            self.data_blocks[self.in_script] = ""
        if tag == "style":
            self.in_style = True
        if tag == "title":
            self.in_title = True
        for k, v in attrs:
            if v is None:
                continue
            if k in URL_ATTRS:
                if v.startswith("#"):
                    if k == "href":
                        self.links.append(v[1:])
                elif not (self.index and k == "href" and re.fullmatch(r"[A-Za-z0-9_.+-]+\.html(#\S*)?", v)):
                    self.err("%s=\"%s\" names something outside the page" % (k, v))
            if k == "style" and ("url(" in v or "@import" in v):
                self.err("style attribute loads something")
            if k.startswith("on"):
                self.err("event handler attribute %s" % k)
            if k == "id":
                if v in self.ids:
                    self.err("duplicate id %s" % v)
                self.ids[v] = (tag, a.get("class", ""))
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))

    def handle_startendtag(self, tag, attrs):
        if tag not in VOID:
            self.err("<%s/> is not a void element" % tag)
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        if tag in VOID:
            self.err("</%s> closes a void element" % tag)
            return
        if not self.stack:
            self.err("</%s> without an open element" % tag)
            return
        top, pos = self.stack.pop()
        if top != tag:
            self.err("</%s> closes <%s> opened at %d:%d" % (tag, top, pos[0], pos[1] + 1))
        if tag == "script":
            self.in_script = None
        if tag == "style":
            self.in_style = False
        if tag == "title":
            self.in_title = False

    def handle_data(self, data):
        if self.in_script is not None:
            self.data_blocks[self.in_script] += data
        if self.in_style and ("url(" in data or "@import" in data):
            self.err("the style sheet loads something")
        if self.in_title:
            self.title += data
        if self.in_script is None and not self.in_style and "<" in data:
            self.err("a raw '<' in text")

    def handle_entityref(self, name):
        if name + ";" not in html.entities.html5:
            self.err("unknown entity &%s;" % name)
        if self.in_title:
            self.title += "&"

    def handle_charref(self, name):
        try:
            n = int(name[1:], 16) if name[:1] in "xX" else int(name)
            if n == 0 or n > 0x10FFFF or 0xD800 <= n <= 0xDFFF:
                self.err("bad character reference &#%s;" % name)
        except ValueError:
            self.err("bad character reference &#%s;" % name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("page")
    ap.add_argument("--json", help="the --analyze=json report of the same PTX")
    ap.add_argument("--index", action="store_true", help="an index page: relative .html links allowed")
    args = ap.parse_args()
    with open(args.page, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        print("FAIL: not UTF-8: %s" % e)
        return 1
    c = Checker(args.index)
    c.feed(text)
    c.close()
    # A raw '&' that is no reference: html.parser passes it as text.
    for m in re.finditer(r"&(?![A-Za-z][A-Za-z0-9]*;|#[0-9]+;|#[xX][0-9A-Fa-f]+;)", text):
        line = text.count("\n", 0, m.start()) + 1
        c.errors.append("%d: a raw '&'" % line)
    if not c.doctype:
        c.errors.append("no <!DOCTYPE html>")
    for tag in ("html", "head", "meta", "title", "body"):
        if tag not in c.saw:
            c.errors.append("no <%s>" % tag)
    if not c.title.strip():
        c.errors.append("an empty <title>")
    for tag, pos in c.stack:
        c.errors.append("<%s> opened at %d:%d is never closed" % (tag, pos[0], pos[1] + 1))
    for target in c.links:
        if target not in c.ids:
            c.errors.append("href=\"#%s\" names no id" % target)
    accesses = 0
    if args.json:
        with open(args.json) as f:
            rep = json.load(f)
        block = c.data_blocks.get("ptx-opt-coverage")
        data = None
        if block is None:
            c.errors.append("no <script type=\"application/json\" id=\"ptx-opt-coverage\">")
        else:
            try:
                data = json.loads(block)
            except ValueError as e:
                c.errors.append("the coverage data block is not JSON: %s" % e)
        if data is not None:
            if data.get("coverage") != rep.get("coverage"):
                c.errors.append("module coverage differs: %s vs %s" % (data.get("coverage"), rep.get("coverage")))
            names = [k["name"] for k in data.get("kernels", [])]
            if names != [k["name"] for k in rep["kernels"]]:
                c.errors.append("kernels differ: %s" % names)
            for dk, rk in zip(data.get("kernels", []), rep["kernels"]):
                if dk.get("coverage") != rk.get("coverage"):
                    c.errors.append("coverage of %s differs" % rk["name"])
        linked = set(c.links)
        for k, kern in enumerate(rep["kernels"]):
            if "k%d" % k not in c.ids:
                c.errors.append("no section id=k%d for kernel %s" % (k, kern["name"]))
            for a in kern["accesses"]:
                if a["space"] not in ("global", "generic"):
                    continue
                accesses += 1
                ident = "k%d-i%d" % (k, a["instruction"])
                if ident not in c.ids:
                    c.errors.append("access %s (%s %s) is missing" % (ident, kern["name"], a["opcode"]))
                    continue
                cls = c.ids[ident][1].split()
                if "v-" + a["verdict"] not in cls:
                    c.errors.append("access %s has class %s, verdict %s" % (ident, cls, a["verdict"]))
                if ident not in linked:
                    c.errors.append("no link to access %s" % ident)
    if c.errors:
        for e in c.errors[:50]:
            print("FAIL: %s: %s" % (os.path.basename(args.page), e))
        return 1
    print("html ok: %d elements with ids, %d links%s" % (len(c.ids), len(c.links),
                                                          ", %d accesses" % accesses if args.json else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
