"""One JSON object a line, one line a finding (the objects of `--format json`'s
`findings`): for `jq`, log pipelines and streaming readers."""

from __future__ import annotations

import json

from .json import finding_dict


def render(result, **_) -> str:
    return "".join(json.dumps(finding_dict(f), ensure_ascii=False) + "\n" for f in result.findings)
