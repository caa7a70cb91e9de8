"""Raw datasets built in the tests: one regression, one classification, one with a leaking column, one with time.

Each is a folder with a CSV (and a README stating license and origin), as `curate synthesize` takes it. The
signal is real but noisy, so a baseline beats a trivial predictor without any column giving the answer away.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

ROWS = 400


def _write(folder: Path, name: str, frame: pd.DataFrame, readme: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    frame.to_csv(folder / name, index=False)
    if readme:
        (folder / "README.md").write_text(readme, encoding="utf-8")
    return folder


def houses(root: Path) -> Path:
    """Regression: price from size, rooms and district."""
    rng = np.random.default_rng(1)
    size = rng.uniform(30, 200, ROWS).round(1)
    district = rng.choice(["north", "south", "east", "west"], ROWS)
    rooms = (size / 30 + rng.integers(0, 2, ROWS)).astype(int)
    price = (size * 2.5 + np.where(district == "north", 60, 0) + rng.normal(0, 25, ROWS)).round(1)
    frame = pd.DataFrame({"house_id": range(1, ROWS + 1), "size_m2": size, "rooms": rooms, "district": district,
                          "price": price})
    return _write(root / "houses", "houses.csv", frame, "Houses sold in a town.\nLicense: CC0-1.0\nSource: a town registry\n")


def patients(root: Path) -> Path:
    """Binary classification: readmission from age, visits and ward."""
    rng = np.random.default_rng(2)
    age = rng.integers(20, 90, ROWS)
    visits = rng.poisson(3, ROWS)
    ward = rng.choice(["cardio", "ortho", "neuro"], ROWS)
    risk = (age - 55) / 15 + (visits - 3) / 2 + rng.normal(0, 1, ROWS)
    frame = pd.DataFrame({"patient_id": range(1, ROWS + 1), "age": age, "visits": visits, "ward": ward,
                          "readmitted": np.where(risk > 0, "yes", "no")})
    return _write(root / "patients", "patients.csv", frame, "Hospital stays.\nLicense: CC-BY-4.0\n")


def loans(root: Path) -> Path:
    """Binary classification with a leaking column: `collection_status` is only known after the default."""
    rng = np.random.default_rng(3)
    income = rng.normal(50, 15, ROWS).round(1)
    amount = rng.uniform(1, 40, ROWS).round(1)
    default = ((amount / income + rng.normal(0, 0.2, ROWS)) > 0.45).astype(int)
    collection = np.where(default == 1, "sent to collection", "closed normally")
    frame = pd.DataFrame({"loan_id": range(1, ROWS + 1), "income": income, "amount": amount,
                          "collection_status": collection, "defaulted": default})
    return _write(root / "loans", "loans.csv", frame, "Loans.\nLicense: CC-BY-4.0\n")


def sales(root: Path) -> Path:
    """Regression over time: daily sales per store, to be split by date."""
    rng = np.random.default_rng(4)
    dates = pd.date_range("2023-01-01", periods=ROWS // 2, freq="D")
    rows = []
    for store in ("s1", "s2"):
        for position, date in enumerate(dates):
            weekend = date.day_of_week >= 5
            units = 100 + (40 if store == "s2" else 0) + (30 if weekend else 0) + position * 0.1 + rng.normal(0, 8)
            rows.append({"date": date.strftime("%Y-%m-%d"), "store": store, "weekend": int(weekend),
                         "promo": int(rng.random() < 0.2), "units_sold": round(units, 1)})
    return _write(root / "sales", "sales.csv", pd.DataFrame(rows), "Daily sales of two stores.\nLicense: ODbL-1.0\n")
