"""The site build's steps, one module per concern (``tools/build_site.py`` runs them in order):

- ``bundle``: the page's files and its bundled scripts and stylesheet;
- ``runtime``: Pyodide, and the runtime trimmed from the verified official files (stdlib, NumPy);
- ``wheel``: our package's wheel and its bytecode;
- ``data``: ``rules.json`` and ``build.json``;
- ``offline``: the icons, the web app manifest and the service worker's precache list;
- ``common``: the paths and helpers they share.
"""

import sys
from pathlib import Path

for _path in (Path(__file__).resolve().parents[2] / part for part in ("py", "tools", "")):
    # yacht (rules.json comes from the same source as the wheel), tools/icons.py, and
    # build_table.stamps (which tables are built)
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))
