"""`referee` commands run in the test's process (click's runner), as a person types them."""

from click.testing import CliRunner, Result

from referee.cli import main


def run(*args: object) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def ok(*args: object) -> str:
    """The output of a command that must succeed."""
    result = run(*args)
    assert result.exit_code == 0, result.output
    return result.output
