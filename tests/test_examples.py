"""The examples run (briefly): examples/tabular_cirulla.py trains, evaluates and prints its figures."""
import importlib.util
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "tabular_cirulla.py"


def test_tabular_example_trains_and_reports(capsys, tmp_path):
    spec = importlib.util.spec_from_file_location("tabular_cirulla", EXAMPLE)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    table = tmp_path / "table.pickle"
    example.main(["--minutes", "0.01", "--eval-hands", "20", "--save", str(table)])
    out = capsys.readouterr().out
    assert "trained on" in out and "tabular agent" in out and "random bot (control)" in out
    assert table.stat().st_size > 0
