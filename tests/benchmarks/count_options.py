"""How many `-T` options each task takes, counted from the task signatures.

    python tests/benchmarks/count_options.py

Prints one line per registered task (its options, then their names), the
total, and each option more than one task declares. A group option (`judging`)
counts once: its keys are listed by `debatebench-eval list`, not by Inspect's
`-T` help.
"""

from __future__ import annotations

import inspect

from inspect_ai._util.registry import registry_find, registry_info

import debatebench_eval._registry  # noqa: F401  (registers the tasks)


def task_options() -> dict[str, list[str]]:
    """Each debatebench task by name, with the options its signature declares."""
    found: dict[str, list[str]] = {}
    for task in registry_find(lambda info: info.type == "task"):
        name = registry_info(task).name
        if not name.startswith("debatebench_eval/"):
            continue
        parameters = inspect.signature(task).parameters.values()
        found[name] = [p.name for p in parameters if p.kind is not p.VAR_KEYWORD]
    return dict(sorted(found.items(), key=lambda item: -len(item[1])))


def main() -> None:
    options = task_options()
    for name, names in options.items():
        print(f"{name:44} {len(names):3}  {', '.join(names)}")
    print(f"{'total':44} {sum(map(len, options.values())):3}")
    for option, takers in repeated(options).items():
        print(f"declared by {len(takers)} tasks: {option} ({', '.join(takers)})")


def repeated(options: dict[str, list[str]]) -> dict[str, list[str]]:
    """Each option that more than one task declares, with those tasks."""
    takers: dict[str, list[str]] = {}
    for name, names in options.items():
        for option in names:
            takers.setdefault(option, []).append(name.removeprefix("debatebench_eval/"))
    return {option: names for option, names in takers.items() if len(names) > 1}


if __name__ == "__main__":
    main()
