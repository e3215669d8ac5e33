"""Report writers: one module per format, each ``write(report, dest)``.

Scoring never knows which formats exist; the CLI looks writers up here.
"""

from grader.report import json_report, terminal

WRITERS = {
    "json": json_report.write,
}

__all__ = ["WRITERS", "json_report", "terminal"]
