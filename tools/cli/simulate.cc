// `partstore simulate` and `partstore demo`: run workloads (tools/simulator/) and report.
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tools/cli/commands.h"
#include "tools/live/live_page.h"
#include "tools/server/server.h"
#include "tools/simulator/advise.h"
#include "tools/simulator/pricing.h"
#include "tools/simulator/report_html.h"
#include "tools/simulator/report_json.h"
#include "tools/simulator/report_text.h"
#include "tools/simulator/scenarios.h"
#include "tools/simulator/simulation.h"
#include "tools/simulator/trace_replay.h"
#include "tools/simulator/workload_toml.h"

namespace partstore::cli {
namespace {

// The workload named `spec`: a file, else a built-in scenario of that name.
Result<sim::Workload> LoadWorkload(const std::string& spec) {
  std::error_code ec;
  std::ifstream in;
  if (std::filesystem::is_regular_file(spec, ec)) in.open(spec, std::ios::binary);
  if (in.is_open()) {
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return sim::ParseWorkload(text, spec);
  }
  if (const sim::Scenario* s = sim::FindScenario(spec)) return sim::ParseWorkload(s->toml, s->file);
  std::string names;
  for (const sim::Scenario& s : sim::BuiltinScenarios())
    names += (names.empty() ? "" : ", ") + std::string(s.name);
  return Status::Validation(
      fmt::format("{}: no such file, and no built-in scenario of that name ({})", spec, names));
}

// A progress bar on standard error, only when it is a terminal.
class Progress {
 public:
  Progress(std::string label, double seconds, bool enabled)
      : label_(std::move(label)), seconds_(seconds), enabled_(enabled && isatty(STDERR_FILENO)) {}
  ~Progress() {
    if (enabled_ && shown_) std::fputs("\r\033[K", stderr);
  }
  void operator()(double fraction) {
    if (!enabled_) return;
    const int percent = static_cast<int>(fraction * 100);
    if (shown_ && percent == last_) return;
    shown_ = true;
    last_ = percent;
    constexpr int kWidth = 30;
    const int filled = percent * kWidth / 100;
    std::fprintf(stderr, "\r%s [%s%s] %3d%% of %.0f simulated s", label_.c_str(),
                 std::string(static_cast<size_t>(filled), '#').c_str(),
                 std::string(static_cast<size_t>(kWidth - filled), '.').c_str(), percent, seconds_);
    std::fflush(stderr);
  }

 private:
  std::string label_;
  double seconds_;
  bool enabled_;
  bool shown_ = false;
  int last_ = -1;
};

// `--live`: where the page is served and how fast the run goes.
struct Live {
  uint16_t port = 8000;
  double pace = 1;  // simulated seconds a second
};

// SimulateOptions::live for `--live`: a server of the page on 127.0.0.1 while the run goes, kept
// until Ctrl-C (SIGINT or SIGTERM) after it.
class LivePage {
 public:
  LivePage(const Live& live, std::string title, std::ostream& err)
      : live_(live), title_(std::move(title)), err_(err) {}

  void operator()(Database& db, bool finished) {
    if (!finished) {
      Start(db);
      return;
    }
    if (!server_) return;
    fmt::print(err_,
               "partstore simulate: the run is over; the page stays at http://127.0.0.1:{}/ui "
               "until Ctrl-C\n",
               server_->port());
    err_.flush();
    thread_.join();  // Run returns on SIGINT / SIGTERM
    server_.reset();
  }

  bool failed() const { return !error_.empty(); }

 private:
  void Start(Database& db) {
    server::ServerOptions options;
    options.port = live_.port;
    options.threads = 1;
    const live::LivePageOptions page{.title = title_};
    options.pages = [&db, page](const server::HttpRequest& request) {
      return live::Answer(db, request, page);
    };
    server_ = std::make_unique<server::Server>(db, std::move(options));
    if (Status started = server_->Start(); !started.ok()) {
      error_ = std::string(started.message());
      fmt::print(err_, "partstore simulate: --live: {}\n", error_);
      server_.reset();
      return;
    }
    fmt::print(err_, "partstore simulate: live page at http://127.0.0.1:{}/ui ({}x)\n",
               server_->port(), live_.pace);
    err_.flush();
    thread_ = std::thread([this] { server_->Run(); });
  }

  Live live_;
  std::string title_;
  std::ostream& err_;
  std::unique_ptr<server::Server> server_;
  std::thread thread_;
  std::string error_;
};

// `last`: the process exits after this run, so its Database is left to the exit instead of being
// freed item by item (SimulateOptions::free_database).
Result<sim::Report> RunOne(const sim::Workload& workload, bool quiet, std::ostream& err,
                           const sim::Prices& prices = sim::DefaultPrices(),
                           const sim::Replay* replay = nullptr,
                           const std::optional<Live>& live = std::nullopt, bool last = false) {
  Progress progress(workload.name, static_cast<double>(sim::TotalMicros(workload)) / 1e6,
                    !quiet && !live);
  sim::SimulationCost cost;
  sim::SimulateOptions options{.progress = [&](double f) { progress(f); },
                               .prices = prices,
                               .replay = replay,
                               .free_database = !last};
  std::optional<LivePage> page;
  if (live) {
    options.pace = live->pace;
    options.live = std::ref(page.emplace(*live, "partstore simulate: " + workload.name, err));
  }
  auto report = sim::Simulate(workload, options, &cost);
  if (page && page->failed()) return Status::Validation("the live page could not be served");
  if (report.ok() && !quiet) {
    fmt::print(
        err,
        "{}: {} requests in {:.2f} s wall-clock ({} simulated requests/s); preload {} items in "
        "{:.2f} s; report {:.2f} s; peak memory {} MB\n",
        workload.name, sim::Grouped(cost.requests), cost.wall_seconds,
        sim::Grouped(
            cost.wall_seconds > 0 ? static_cast<double>(cost.requests) / cost.wall_seconds : 0.0,
            0),
        sim::Grouped(cost.preload_items), cost.preload_wall_seconds, cost.report_wall_seconds,
        sim::Grouped(static_cast<double>(cost.peak_resident_bytes) / (1024.0 * 1024.0), 0));
  }
  return report;
}

Status WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return Status::Validation(fmt::format("cannot write {}", path));
  return Status::Ok();
}

// Whether `path` can be written (its directory exists and is writable; the file, if there, is
// writable), checked before a run so that a typo does not cost the whole simulation: an error
// naming `option` and the path, or OK.
Status CheckWritable(std::string_view option, const std::string& path) {
  if (path.empty()) return Status::Ok();
  namespace fs = std::filesystem;
  const fs::path target = fs::absolute(path);
  const fs::path dir = target.parent_path();
  std::error_code ec;
  std::string why;
  if (!fs::is_directory(dir, ec)) {
    why = "no such directory";
  } else if (fs::is_directory(target, ec)) {
    why = "it is a directory";
  } else if (access(dir.c_str(), W_OK) != 0 ||
             (fs::exists(target, ec) && access(target.c_str(), W_OK) != 0)) {
    why = "permission denied";
  }
  if (why.empty()) return Status::Ok();
  return Status::Validation(fmt::format("{}: cannot write {} ({})", option, path, why));
}

// The report files `command` asks for, checked (CheckWritable); prints the error and returns false
// when one cannot be written.
bool OutputsWritable(const SimulateCommand& command, std::ostream& err, std::string_view program) {
  for (const auto& [option, path] :
       {std::pair<std::string_view, const std::string&>{"--json", command.json},
        {"--html", command.html}}) {
    if (Status s = CheckWritable(option, path); !s.ok()) {
      fmt::print(err, "{}: {}\n", program, s.message());
      return false;
    }
  }
  return true;
}

// Prints `text` (by default the runs' text report), writes the JSON and HTML reports asked for
// (every run in them), and prints where.
int Emit(const std::vector<sim::Report>& runs, const SimulateCommand& command, std::ostream& out,
         std::ostream& err, std::optional<std::string> text = std::nullopt) {
  out << (text ? *text : runs.size() == 1 ? sim::ReportText(runs[0]) : sim::ComparisonText(runs));
  if (!command.json.empty()) {
    const std::string json =
        runs.size() == 1 ? sim::ReportJson(runs[0]) : sim::ComparisonJson(runs);
    if (Status s = WriteFile(command.json, json); !s.ok()) {
      fmt::print(err, "partstore simulate: {}\n", s.message());
      return 1;
    }
    fmt::print(out, "JSON report: {}\n", std::filesystem::absolute(command.json).string());
  }
  if (!command.html.empty()) {
    if (Status s = WriteFile(command.html, sim::HtmlReport(runs)); !s.ok()) {
      fmt::print(err, "partstore simulate: {}\n", s.message());
      return 1;
    }
    fmt::print(out, "HTML report: {}\n", std::filesystem::absolute(command.html).string());
  }
  return 0;
}

// --advise: the what-ifs of `workload` (whose run gave `report`; `replay`: its trace) simulated,
// then every run reported side by side.
int EmitAdvice(const sim::Workload& workload, const sim::Report& report,
               const SimulateCommand& command, const sim::Prices& prices, const sim::Replay* replay,
               std::ostream& out, std::ostream& err) {
  if (!command.quiet) fmt::print(err, "advising: simulating the what-ifs...\n");
  const std::vector<sim::Advice> advice =
      sim::Advise(workload, report, {.progress = nullptr, .prices = prices, .replay = replay});
  std::vector<sim::Report> all = {report};  // the JSON and HTML reports: every run side by side
  for (const sim::Advice& a : advice) {
    if (a.report) all.push_back(*a.report);
  }
  return Emit(all, command, out, err,
              sim::ReportText(report) + "\n" + sim::AdviceText(report, advice));
}

// `partstore simulate --trace FILE [--speed N] [--tables T.toml] [--advise]`.
int RunReplay(const SimulateCommand& command, const sim::Prices& prices, std::ostream& out,
              std::ostream& err) {
  if (!command.workloads.empty()) {
    fmt::print(err,
               "partstore simulate: --trace replays a trace instead of a workload: give no "
               "workload or --compare with it\n");
    return 2;
  }
  auto speed = sim::ParseSpeed(command.speed);
  if (!speed.ok()) {
    fmt::print(err, "partstore simulate: {}\n", speed.status().message());
    return 2;
  }
  if (command.live && command.advise) {
    fmt::print(err, "partstore simulate: --live watches one run (not --compare or --advise)\n");
    return 2;
  }
  if (!command.live && command.live_port != 8000) {
    fmt::print(err, "partstore simulate: --port goes with --live\n");
    return 2;
  }
  sim::ReplayOptions options{.speed = *speed};
  if (!command.tables.empty()) {
    std::ifstream in(command.tables, std::ios::binary);
    if (!in.is_open()) {
      fmt::print(err, "partstore simulate: cannot read {}\n", command.tables);
      return 2;
    }
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto tables = sim::ParseWorkload(text, command.tables, sim::WorkloadParts::kTables);
    if (!tables.ok()) {
      fmt::print(err, "partstore simulate: {}\n", tables.status().message());
      return 2;
    }
    options.tables = std::move(*tables);
  }
  std::ifstream in(command.trace, std::ios::binary);
  if (!in.is_open()) {
    fmt::print(err, "partstore simulate: cannot read {}\n", command.trace);
    return 2;
  }
  auto replay = sim::ReadTrace(in, command.trace, options);
  if (!replay.ok()) {
    fmt::print(err, "partstore simulate: {}\n", replay.status().message());
    return 2;
  }
  if (!command.quiet) {
    fmt::print(err, "replaying {} requests of {} at {}x\n", sim::Grouped(replay->requests.size()),
               command.trace, *speed);
  }
  auto report = RunOne(
      replay->workload, command.quiet, err, prices, &*replay,
      command.live ? std::optional<Live>(Live{.port = command.live_port, .pace = 1}) : std::nullopt,
      /*last=*/!command.advise);
  if (!report.ok()) {
    fmt::print(err, "partstore simulate: {}: {}\n", command.trace, report.status().message());
    return 1;
  }
  if (command.advise)
    return EmitAdvice(replay->workload, *report, command, prices, &*replay, out, err);
  return Emit({std::move(*report)}, command, out, err);
}

}  // namespace

int RunSimulate(const SimulateCommand& command, std::ostream& out, std::ostream& err) {
  if (command.list) {
    for (const sim::Scenario& s : sim::BuiltinScenarios()) {
      auto workload = sim::ParseWorkload(s.toml, s.file);
      fmt::print(out, "{:<24} {}\n", s.name, workload.ok() ? workload->description : "(invalid)");
    }
    return 0;
  }
  sim::Prices prices = sim::DefaultPrices();
  if (!command.prices.empty()) {
    auto loaded = sim::LoadPrices(command.prices);
    if (!loaded.ok()) {
      fmt::print(err, "partstore simulate: {}\n", loaded.status().message());
      return 2;
    }
    prices = std::move(*loaded);
  }
  if (command.print_prices) {
    out << sim::PricesToml(prices);
    return 0;
  }
  if (!OutputsWritable(command, err, "partstore simulate")) return 2;
  if (!command.trace.empty()) return RunReplay(command, prices, out, err);
  if ((command.speed != "1x" && !command.live) || !command.tables.empty()) {
    fmt::print(err,
               "partstore simulate: --speed goes with --trace FILE or --live, --tables with "
               "--trace FILE\n");
    return 2;
  }
  std::optional<Live> live;
  if (command.live) {
    auto speed = sim::ParseSpeed(command.speed);
    if (!speed.ok()) {
      fmt::print(err, "partstore simulate: {}\n", speed.status().message());
      return 2;
    }
    if (command.workloads.size() > 1 || command.advise) {
      fmt::print(err, "partstore simulate: --live watches one run (not --compare or --advise)\n");
      return 2;
    }
    live = Live{.port = command.live_port, .pace = *speed};
  } else if (command.live_port != 8000) {
    fmt::print(err, "partstore simulate: --port goes with --live\n");
    return 2;
  }
  if (command.workloads.empty()) {
    fmt::print(err,
               "partstore simulate: a workload file or built-in scenario is required "
               "(--list shows the built-in ones)\n");
    return 2;
  }
  if (command.advise && command.workloads.size() != 1) {
    fmt::print(err, "partstore simulate: --advise takes one workload (not --compare)\n");
    return 2;
  }
  std::vector<sim::Report> runs;
  std::vector<sim::Workload> workloads;  // (--advise re-runs the first)
  for (const std::string& spec : command.workloads) {
    auto workload = LoadWorkload(spec);
    if (!workload.ok()) {
      fmt::print(err, "partstore simulate: {}\n", workload.status().message());
      return 2;
    }
    workloads.push_back(*workload);
    const bool last = command.workloads.size() == 1 && !command.advise;
    auto report = RunOne(*workload, command.quiet, err, prices, nullptr, live, last);
    if (!report.ok()) {
      fmt::print(err, "partstore simulate: {}: {}\n", spec, report.status().message());
      return 1;
    }
    runs.push_back(std::move(*report));
  }
  if (command.advise) {
    return EmitAdvice(workloads.front(), runs.front(), command, prices, nullptr, out, err);
  }
  return Emit(runs, command, out, err);
}

int RunDemo(const SimulateCommand& command, std::ostream& out, std::ostream& err) {
  SimulateCommand demo = command;
  demo.workloads = {"viral-product", "viral-product-sharded"};
  if (demo.html.empty()) demo.html = "partstore-demo.html";
  if (!OutputsWritable(demo, err, "partstore demo")) return 2;
  fmt::print(
      out,
      "partstore demo: a product goes viral on the seed article's e-commerce table.\n"
      "Two runs of the same traffic on a simulated clock: unsharded, then with write sharding\n"
      "(tools/scenarios/viral_product.toml and viral_product_sharded.toml).\n\n");
  std::vector<sim::Report> runs;
  for (const std::string& name : demo.workloads) {
    const sim::Scenario* s = sim::FindScenario(name);
    auto workload = sim::ParseWorkload(s->toml, s->file);
    if (!workload.ok()) {
      fmt::print(err, "partstore demo: {}\n", workload.status().message());
      return 1;
    }
    auto report = RunOne(*workload, command.quiet, err);
    if (!report.ok()) {
      fmt::print(err, "partstore demo: {}: {}\n", name, report.status().message());
      return 1;
    }
    runs.push_back(std::move(*report));
  }
  const int code = Emit(runs, demo, out, err);
  if (code == 0) {
    fmt::print(out,
               "\nOpen the HTML report in a browser for the partition heat maps; run one scenario "
               "with `partstore simulate viral-product`.\n");
  }
  return code;
}

}  // namespace partstore::cli
