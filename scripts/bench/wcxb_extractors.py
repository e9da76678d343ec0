"""The HTML-only extractors the reader is measured beside on WCXB (scripts/bench/wcxb.mjs):
PyPI trafilatura and rs-trafilatura (the Python bindings of the Rust crate), each on the page's
saved HTML with its URL, default options, plain text out.

  wcxb_extractors.py --versions                      the installed versions, as JSON
  wcxb_extractors.py --corpus DIR --out DIR [ID ...]  writes OUT/trafilatura.json and
                                                     OUT/rs_trafilatura.json ({id: text}),
                                                     extracting only the pages not there yet
"""

import argparse
import gzip
import json
import os
import sys
import time
from importlib.metadata import version


def versions():
    return {"trafilatura": version("trafilatura"), "rs_trafilatura": version("rs-trafilatura")}


def extractors():
    import rs_trafilatura
    import trafilatura

    def traf(html, url):
        return trafilatura.extract(html, url=url, output_format="txt") or ""

    def rs(html, url):
        result = rs_trafilatura.extract(html, url=url)
        return getattr(result, "main_content", None) or getattr(result, "content_text", None) or ""

    return {"trafilatura": traf, "rs_trafilatura": rs}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--versions", action="store_true")
    ap.add_argument("--corpus")
    ap.add_argument("--out")
    ap.add_argument("ids", nargs="*")
    a = ap.parse_args()
    if a.versions:
        print(json.dumps(versions()))
        return
    ids = a.ids or sorted(f[: -len(".html.gz")] for f in os.listdir(os.path.join(a.corpus, "html")))
    os.makedirs(a.out, exist_ok=True)
    for name, fn in extractors().items():
        path = os.path.join(a.out, f"{name}.json")
        texts = json.load(open(path)) if os.path.exists(path) else {}
        todo = [i for i in ids if i not in texts]
        t0 = time.time()
        for k, i in enumerate(todo):
            html = gzip.open(os.path.join(a.corpus, "html", f"{i}.html.gz")).read().decode("utf-8", "replace")
            gt = json.load(open(os.path.join(a.corpus, "ground-truth", f"{i}.json")))
            try:
                texts[i] = fn(html, gt.get("url"))
            except Exception as e:  # an extractor's failure on one page scores as empty
                print(f"{name}: {i}: {e}", file=sys.stderr)
                texts[i] = ""
            if (k + 1) % 200 == 0:
                print(f"{name}: {k + 1}/{len(todo)} ({(time.time() - t0) / (k + 1) * 1000:.0f} ms a page)", file=sys.stderr)
        tmp = f"{path}.tmp"
        with open(tmp, "w") as f:
            json.dump(texts, f)
        os.replace(tmp, path)


if __name__ == "__main__":
    main()
