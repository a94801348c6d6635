// `partstore export` and `partstore import` (commands.h): DynamoDB's export format between a data
// directory (partstore serve --data-dir) and the file system, without a server.
//
//   partstore export --data-dir DATA --table Orders --to /backups
//     writes /backups/AWSDynamoDB/<ExportId>/ (manifests and gzipped data files, as
//     ExportTableToPointInTime writes them; tools/transfer/export_writer.h).
//   partstore import SOURCE --data-dir DATA --table Orders --key PK:S --key SK:S
//     creates Orders (on-demand, the keys given) in DATA and loads SOURCE into it: an export's
//     directory (its manifest-files.json names the data files), any other directory (every file
//     under it), or one file. DynamoDB JSON or CSV by extension (.json, .json.gz: DynamoDB JSON;
//     .csv, .csv.gz: CSV) unless --format says; gzip by the .gz extension unless --compression
//     says. Then DATA gets a new snapshot, so the table is there for the next `partstore serve`.
//
// Neither may run on a data directory a server has open (the server's next snapshot would not
// hold the import, and an export would miss what the server has not yet written).
#include <fmt/format.h>

#include <filesystem>
#include <ostream>
#include <string_view>

#include "tools/cli/commands.h"
#include "tools/transfer/export_writer.h"
#include "tools/transfer/import_reader.h"

namespace partstore::cli {
namespace {

namespace fs = std::filesystem;

// `command` names the program in the warning about a damaged last log record Open dropped.
Result<std::unique_ptr<Database>> OpenData(const std::string& data_dir, std::string_view command,
                                           std::ostream& err) {
  DatabaseOptions options;
  options.persistence.data_dir = data_dir;
  Result<std::unique_ptr<Database>> db = Database::Open(options);
  if (db.ok()) {
    for (const std::string& drop : (*db)->DescribePersistence().wal_drops) {
      err << "partstore " << command << ": warning: write-ahead log " << drop << '\n';
    }
  }
  return db;
}

Result<CreateTableRequest> TableOf(const ImportCommand& command) {
  if (command.keys.empty() || command.keys.size() > 2) {
    return Status::Validation("--key NAME:TYPE: the partition key, then optionally the sort key");
  }
  CreateTableRequest create;
  create.table_name = command.table;
  create.billing_mode = BillingMode::kPayPerRequest;
  for (size_t i = 0; i < command.keys.size(); ++i) {
    const std::string& key = command.keys[i];
    const size_t colon = key.rfind(':');
    const std::string type = colon == std::string::npos ? "" : key.substr(colon + 1);
    if (colon == 0 || (type != "S" && type != "N" && type != "B")) {
      return Status::Validation(fmt::format("--key {}: expected NAME:S, NAME:N or NAME:B", key));
    }
    const std::string name = key.substr(0, colon);
    create.attribute_definitions.push_back({name, type == "S"   ? KeyType::kString
                                                  : type == "N" ? KeyType::kNumber
                                                                : KeyType::kBinary});
    create.key_schema.push_back({name, i == 0 ? KeyRoleName::kHash : KeyRoleName::kRange});
  }
  return create;
}

}  // namespace

int RunExport(const ExportCommand& command, std::ostream& out, std::ostream& err) {
  Result<std::unique_ptr<Database>> db = OpenData(command.data_dir, "export", err);
  if (!db.ok()) {
    err << "partstore export: cannot open the data: " << db.status().message() << '\n';
    return 1;
  }
  Result<TableImage> image = (*db)->ReadTableImage(command.table);
  if (!image.ok()) {
    err << "partstore export: " << image.status().message() << '\n';
    return 1;
  }
  transfer::ExportDescription description{
      .export_arn = transfer::NewTransferArn(image->table.table_arn, "export"),
      .start_time = image->time,
      .end_time = image->time,
      .table_arn = image->table.table_arn,
      .table_id = image->table.table_id,
      .export_time = image->time,
      .s3_bucket = fs::path(command.to).filename().string(),
  };
  Result<transfer::ExportFiles> files = transfer::WriteExport(*image, description, command.to);
  if (!files.ok()) {
    err << "partstore export: " << files.status().message() << '\n';
    return 1;
  }
  out << "partstore export: " << files->item_count << " items of " << command.table << " in "
      << (fs::path(command.to) / fs::path(files->manifest_summary_key).parent_path()).string()
      << '\n';
  return 0;
}

int RunImport(const ImportCommand& command, std::ostream& out, std::ostream& err) {
  Result<CreateTableRequest> create = TableOf(command);
  if (!create.ok()) {
    err << "partstore import: " << create.status().message() << '\n';
    return 2;
  }
  if (command.delimiter.size() != 1 ||
      std::string_view(",\t:;| ").find(command.delimiter[0]) == std::string_view::npos) {
    err << "partstore import: --delimiter: one of , \\t : ; | and space\n";
    return 2;
  }
  // What to read.
  Result<transfer::LocalSource> source = transfer::FindLocalSource(command.source);
  if (!source.ok()) {
    err << "partstore import: " << source.status().message() << '\n';
    return 1;
  }
  const std::vector<std::string>& paths = source->paths;
  const bool gzip = command.compression == "auto" ? source->gzip : command.compression == "gzip";
  const bool csv = command.format == "auto" ? source->csv : command.format == "csv";
  transfer::ImportRequest request{.input_format = csv ? "CSV" : "DYNAMODB_JSON"};
  request.csv = transfer::CsvOptions{.delimiter = command.delimiter};
  request.table_creation_parameters = *create;

  Result<std::unique_ptr<Database>> db = OpenData(command.data_dir, "import", err);
  if (!db.ok()) {
    err << "partstore import: cannot open the data: " << db.status().message() << '\n';
    return 1;
  }
  if (Result<CreateTableResult> created = (*db)->CreateTable(*create); !created.ok()) {
    err << "partstore import: " << created.status().message() << '\n';
    return 1;
  }
  transfer::ImportCounts total;
  Status loaded = transfer::LoadObjects(**db, command.table, paths, transfer::FormatOf(request),
                                        gzip, [&](const transfer::ImportCounts& more) {
                                          total.processed_size_bytes += more.processed_size_bytes;
                                          total.processed_items += more.processed_items;
                                          total.imported += more.imported;
                                          total.errors += more.errors;
                                          err << "partstore import: " << total.imported
                                              << " items loaded, " << total.errors << " errors\r"
                                              << std::flush;
                                        });
  err << '\n';
  if (!loaded.ok()) {
    err << "partstore import: " << loaded.message() << " (nothing saved)\n";
    return 1;
  }
  Result<SnapshotInfo> saved = (*db)->CreateSnapshot({});
  if (!saved.ok()) {
    err << "partstore import: the snapshot failed: " << saved.status().message() << '\n';
    return 1;
  }
  out << "partstore import: " << total.imported << " items into " << command.table << " ("
      << total.errors << " records skipped: unreadable or refused), " << paths.size()
      << " files; saved to " << saved->path << '\n';
  return total.imported == 0 && total.errors > 0 ? 1 : 0;
}

}  // namespace partstore::cli
