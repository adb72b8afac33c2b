"""The README's Python example (the ```python block of its Sidecar section: sync over stdio, asyncio over
the socket) runs as written in a fresh directory, TAO_BIN naming the sidecar, and prints what its comments say."""
import contextlib
import io
import os
import re
import tempfile
import unittest
import unittest.mock

import support  # noqa: F401  (puts the source tree first on sys.path)
from support import ROOT, TAO


def readme_blocks():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Sidecar\n") :]
    section = section[: section.index("\n## ", 1)]
    return re.findall(r"```python\n(.*?)```", section, re.S)


class Readme(unittest.TestCase):
    def test_the_python_examples_print_what_they_say(self):
        blocks = readme_blocks()
        self.assertEqual(len(blocks), 1)
        self.assertLessEqual(len([line for line in blocks[0].splitlines() if line.strip()]), 10)
        # Each print's comment says what it prints; "the same" repeats the one before.
        expected = []
        for comment in re.findall(r"print\(.*?#\s*(.+)$", blocks[0], re.M):
            expected.append(expected[-1] if comment.strip() == "the same" else comment.strip())
        self.assertEqual(len(expected), 2)
        here = os.getcwd()
        with tempfile.TemporaryDirectory() as d, unittest.mock.patch.dict(os.environ, {"TAO_BIN": TAO}):
            os.chdir(d)
            try:
                out = io.StringIO()
                scope = {"__name__": "readme"}
                with contextlib.redirect_stdout(out):
                    for block in blocks:
                        exec(compile(block, "README.md", "exec"), scope)  # noqa: S102 - the README's own code
            finally:
                os.chdir(here)
        self.assertEqual(out.getvalue().splitlines(), expected)


if __name__ == "__main__":
    unittest.main()
