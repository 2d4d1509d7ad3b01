"""Parsing per language: summarize() and the bare tree-sitter parse of generated files.

One generated file per language, ``--lines`` long: a unit repeated with its names numbered (a
doc comment, a class with a field, a property or constant and 5 methods of a few lines, as
project code has them). Runs are interleaved (every language once, ``--runs`` times) so that
a noisy machine slows all alike; prints per language the file's size and definitions and the
median and best milliseconds of ``summarize`` (what the indexer and the context assembler
call) and of the parse alone. For docs/context.md's per-language figures (Ruby's class
constants, Swift, Kotlin's slow expressions): compare languages and commits within one run.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from app.evaluation.corpus_archive import corpus_folder

# one unit per language, ``{i}`` numbered; about 25 lines each
UNITS: dict[str, str] = {
    "python": '''

class Store{i}:
    """Keeps the orders of shop {i}."""

    limit = {i}

    def __init__(self, name: str) -> None:
        self.name = name
        self.orders: list[int] = []

    def add(self, order: int) -> int:
        """Adds an order."""
        self.orders.append(order)
        return len(self.orders)

    def total(self) -> int:
        return sum(self.orders) + self.limit

    def clear(self) -> None:
        self.orders.clear()

    def first(self) -> int | None:
        return self.orders[0] if self.orders else None
''',
    "javascript": '''
/** Keeps the orders of shop {i}. */
export class Store{i} {
  limit = {i};

  constructor(name) {
    this.name = name;
    this.orders = [];
  }

  /** Adds an order. */
  add(order) {
    this.orders.push(order);
    return this.orders.length;
  }

  total() {
    return this.orders.reduce((a, b) => a + b, 0) + this.limit;
  }

  clear() { this.orders = []; }

  first() { return this.orders.length ? this.orders[0] : null; }
}
''',
    "typescript": '''
/** Keeps the orders of shop {i}. */
export class Store{i} {
  private limit: number = {i};
  private orders: number[] = [];

  constructor(private readonly name: string) {}

  /** Adds an order. */
  add(order: number): number {
    this.orders.push(order);
    return this.orders.length;
  }

  total(): number {
    return this.orders.reduce((a, b) => a + b, 0) + this.limit;
  }

  clear(): void { this.orders = []; }

  first(): number | undefined { return this.orders[0]; }
}
''',
    "go": '''
// Store{i} keeps the orders of shop {i}.
type Store{i} struct {
	Name   string
	orders []int
}

// Limit{i} is the most orders kept.
const Limit{i} = {i}

// Add adds an order.
func (s *Store{i}) Add(order int) int {
	s.orders = append(s.orders, order)
	return len(s.orders)
}

func (s *Store{i}) Total() int {
	total := Limit{i}
	for _, o := range s.orders {
		total += o
	}
	return total
}

func (s *Store{i}) Clear() { s.orders = nil }
''',
    "rust": '''
/// Keeps the orders of shop {i}.
pub struct Store{i} {
    pub name: String,
    orders: Vec<i64>,
}

pub const LIMIT_{i}: i64 = {i};

impl Store{i} {
    /// Adds an order.
    pub fn add(&mut self, order: i64) -> usize {
        self.orders.push(order);
        self.orders.len()
    }

    pub fn total(&self) -> i64 {
        self.orders.iter().sum::<i64>() + LIMIT_{i}
    }

    pub fn clear(&mut self) { self.orders.clear(); }

    pub fn first(&self) -> Option<&i64> { self.orders.first() }
}
''',
    "java": '''
/** Keeps the orders of shop {i}. */
class Store{i} {
    static final int LIMIT = {i};
    private final java.util.List<Integer> orders = new java.util.ArrayList<>();

    /** Adds an order. */
    int add(int order) {
        orders.add(order);
        return orders.size();
    }

    int total() {
        int total = LIMIT;
        for (int o : orders) {
            total += o;
        }
        return total;
    }

    void clear() { orders.clear(); }

    Integer first() { return orders.isEmpty() ? null : orders.get(0); }
}
''',
    "c": '''
/* Keeps the orders of shop {i}. */
struct store{i} {
    const char *name;
    int orders[64];
    int count;
};

#define LIMIT_{i} {i}

/* Adds an order. */
int store{i}_add(struct store{i} *s, int order) {
    s->orders[s->count++] = order;
    return s->count;
}

int store{i}_total(const struct store{i} *s) {
    int total = LIMIT_{i};
    for (int k = 0; k < s->count; k++) {
        total += s->orders[k];
    }
    return total;
}

void store{i}_clear(struct store{i} *s) { s->count = 0; }
''',
    "cpp": '''
/// Keeps the orders of shop {i}.
class Store{i} {
public:
    static constexpr int limit = {i};

    /// Adds an order.
    int add(int order) {
        orders_.push_back(order);
        return static_cast<int>(orders_.size());
    }

    int total() const {
        int total = limit;
        for (int o : orders_) total += o;
        return total;
    }

    void clear() { orders_.clear(); }

private:
    std::vector<int> orders_;
    std::string name_;
};
''',
    "csharp": '''
/// <summary>Keeps the orders of shop {i}.</summary>
public sealed class Store{i}
{
    public const int Limit = {i};
    private readonly List<int> _orders = new();
    public string Name { get; init; } = "";

    /// <summary>Adds an order.</summary>
    public int Add(int order)
    {
        _orders.Add(order);
        return _orders.Count;
    }

    public int Total()
    {
        var total = Limit;
        foreach (var o in _orders) total += o;
        return total;
    }

    public void Clear() => _orders.Clear();
}
''',
    "kotlin": '''
/** Keeps the orders of shop {i}. */
class Store{i}(val name: String) {
    private val orders = mutableListOf<Int>()
    val limit: Int = {i}

    /** Adds an order. */
    fun add(order: Int): Int {
        orders.add(order)
        return orders.size
    }

    fun total(): Int {
        var total = limit
        for (o in orders) {
            total += o
        }
        return total
    }

    fun clear() = orders.clear()

    fun first(): Int? = orders.firstOrNull()
}
''',
    "swift": '''
/// Keeps the orders of shop {i}.
public final class Store{i} {
    public let name: String
    private(set) var orders: [Int] = []
    static let limit = {i}

    public init(name: String) {
        self.name = name
    }

    /// Adds an order.
    @discardableResult
    public func add(_ order: Int) -> Int {
        orders.append(order)
        return orders.count
    }

    public var total: Int { orders.reduce(Self.limit, +) }

    public func clear() { orders.removeAll() }

    public func first() -> Int? { orders.first }
}
''',
    "php": '''
/** Keeps the orders of shop {i}. */
class Store{i}
{
    public const LIMIT = {i};
    private array $orders = [];

    public function __construct(private string $name) {}

    /** Adds an order. */
    public function add(int $order): int
    {
        $this->orders[] = $order;
        return count($this->orders);
    }

    public function total(): int
    {
        return array_sum($this->orders) + self::LIMIT;
    }

    public function clear(): void { $this->orders = []; }
}
''',
    "ruby": '''
# Keeps the orders of shop {i}.
class Store{i}
  LIMIT = {i}

  attr_reader :name

  def initialize(name)
    @name = name
    @orders = []
  end

  # Adds an order.
  def add(order)
    @orders << order
    @orders.size
  end

  def total
    @orders.sum + LIMIT
  end

  private

  def clear
    @orders.clear
  end
end
''',
}
_HEADS = {"php": "<?php\n", "cpp": "#include <string>\n#include <vector>\n"}
_PATHS = {
    "python": "store.py", "javascript": "store.js", "typescript": "store.ts", "go": "store.go",
    "rust": "store.rs", "java": "Store.java", "c": "store.c", "cpp": "store.cpp",
    "csharp": "Store.cs", "kotlin": "Store.kt", "swift": "Store.swift", "php": "Store.php",
    "ruby": "store.rb",
}


def generated(language: str, lines: int) -> str:
    """A file of ``language`` at least ``lines`` long: its unit repeated, names numbered."""
    unit = UNITS[language]
    parts = [_HEADS.get(language, "")]
    count = 0
    i = 0
    while count < lines:
        text = unit.replace("{i}", str(i))
        parts.append(text)
        count += text.count("\n")
        i += 1
    return "".join(parts)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lines", type=int, default=3000, help="lines per generated file")
    parser.add_argument("--runs", type=int, default=15, help="interleaved runs per language")
    parser.add_argument("--languages", default=",".join(UNITS),
                        help="comma-separated language ids (default: all)")
    parser.add_argument("--root", type=corpus_folder, default=None,
                        help="a project instead: summarize its files of those languages "
                        "(one run = every file once; prints the total per language)")


def run(args: argparse.Namespace) -> dict[str, Any]:
    from daemon.parse import summarize
    from daemon.parse_tree import parse_bytes

    if args.root is not None:
        return _run_project(args)
    languages = [lang.strip() for lang in args.languages.split(",") if lang.strip()]
    unknown = sorted(set(languages) - set(UNITS))
    if unknown:
        raise SystemExit(f"nospin bench parse: no generated file for {', '.join(unknown)}")
    texts = {lang: generated(lang, args.lines) for lang in languages}
    summaries = {lang: summarize(_PATHS[lang], text) for lang, text in texts.items()}  # warm
    whole: dict[str, list[float]] = {lang: [] for lang in languages}
    parse_only: dict[str, list[float]] = {lang: [] for lang in languages}
    for _ in range(max(1, args.runs)):
        for lang, text in texts.items():
            data = text.encode("utf-8")
            t0 = time.perf_counter()
            parse_bytes(lang, data)
            t1 = time.perf_counter()
            summarize(_PATHS[lang], text)
            t2 = time.perf_counter()
            parse_only[lang].append((t1 - t0) * 1000)
            whole[lang].append((t2 - t1) * 1000)
    out: dict[str, Any] = {"lines": args.lines, "runs": args.runs, "languages": {}}
    for lang in languages:
        summary = summaries[lang]
        out["languages"][lang] = {
            "lines": texts[lang].count("\n"),
            "bytes": len(texts[lang].encode("utf-8")),
            "definitions": len(summary.definitions),
            "syntax_errors": summary.has_syntax_errors,
            "summarize_ms_median": round(statistics.median(whole[lang]), 2),
            "summarize_ms_best": round(min(whole[lang]), 2),
            "parse_ms_median": round(statistics.median(parse_only[lang]), 2),
        }
    return out


def _run_project(args: argparse.Namespace) -> dict[str, Any]:
    """``--root``: the project's own files (bench/corpora/reqwest: the Rust item macros), every
    file summarized once per run, runs interleaved by language; the total per language."""
    from daemon.languages import detect_language
    from daemon.parse import summarize

    wanted = {lang.strip() for lang in args.languages.split(",") if lang.strip()}
    files: dict[str, list[tuple[str, str]]] = {}
    for path in sorted(p for p in args.root.rglob("*") if p.is_file()):
        language = detect_language(str(path))
        if language in wanted:
            text = path.read_text(encoding="utf-8", errors="replace")
            files.setdefault(language, []).append((str(path.relative_to(args.root)), text))
    totals: dict[str, list[float]] = {lang: [] for lang in files}
    warm = {lang: [summarize(p, t) for p, t in found] for lang, found in files.items()}
    for _ in range(max(1, args.runs)):
        for lang, found in files.items():
            t0 = time.perf_counter()
            for rel, text in found:
                summarize(rel, text)
            totals[lang].append((time.perf_counter() - t0) * 1000)
    return {
        "root": str(args.root),
        "runs": args.runs,
        "languages": {
            lang: {
                "files": len(found),
                "bytes": sum(len(t.encode("utf-8")) for _, t in found),
                "definitions": sum(len(summary.definitions) for summary in warm[lang]),
                # files tree-sitter does not parse whole (the grammar work-arounds applied)
                "files_with_syntax_errors": sum(1 for summary in warm[lang]
                                                if summary.has_syntax_errors),
                "summarize_ms_median": round(statistics.median(totals[lang]), 2),
                "summarize_ms_best": round(min(totals[lang]), 2),
            }
            for lang, found in files.items()
        },
    }
