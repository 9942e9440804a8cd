// sqlite-bridge-bench-cluster: our client's throughput on a dqlite cluster,
// with go-dqlite's dqlite-benchmark workloads, so that scripts/cluster-bench
// can run both against the same nodes and compare (figures in the README).
//
//   sqlite-bridge-bench-cluster --cluster HOST:PORT[,…] [--workload kvwrite|kvreadwrite]
//                               [--duration SECONDS] [--key-size N] [--value-size N]
//                               [--database NAME]
//
// kvwrite: single-row autocommit `INSERT OR REPLACE INTO model(key, value)
// VALUES (?, ?)` with a random key of --key-size letters and a value of
// --value-size bytes (half one repeated letter, half random letters), as
// go-dqlite's worker makes them. kvreadwrite: each operation is, at random,
// that write or a point read `SELECT value FROM model WHERE key = ?` of a
// key written before. One client, one operation at a time, for --duration
// seconds. Prints one line: "workload W seconds S writes N reads N
// writes_per_second X reads_per_second Y errors E".
#include <sqlitebridge/cluster/ClusterDatabase.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace sqlitebridge;

namespace {

struct Options {
  std::vector<std::string> cluster;
  std::string workload = "kvwrite";
  std::string database = "sqlitebridge-benchmark";
  double duration = 10;
  std::size_t keySize = 32;
  std::size_t valueSize = 1024;
};

int usage() {
  std::fprintf(stderr,
               "usage: sqlite-bridge-bench-cluster --cluster HOST:PORT[,...] [--workload kvwrite|kvreadwrite] "
               "[--duration SECONDS] [--key-size N] [--value-size N] [--database NAME]\n");
  return 2;
}

class Letters {
 public:
  std::string random(std::size_t count) {
    static const char kLetters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    std::string text(count, 'a');
    for (char& c : text) c = kLetters[pick_(engine_)];
    return text;
  }
  bool coin() { return (engine_() & 1) == 0; }
  std::size_t below(std::size_t count) { return std::uniform_int_distribution<std::size_t>(0, count - 1)(engine_); }

 private:
  std::mt19937_64 engine_{std::random_device{}()};
  std::uniform_int_distribution<int> pick_{0, 51};
};

}  // namespace

int main(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string option = argv[i];
    if (i + 1 >= argc) return usage();
    const std::string value = argv[++i];
    if (option == "--cluster") {
      std::stringstream list(value);
      for (std::string address; std::getline(list, address, ',');) options.cluster.push_back(address);
    } else if (option == "--workload") {
      options.workload = value;
    } else if (option == "--duration") {
      options.duration = std::atof(value.c_str());
    } else if (option == "--key-size") {
      options.keySize = static_cast<std::size_t>(std::atoi(value.c_str()));
    } else if (option == "--value-size") {
      options.valueSize = static_cast<std::size_t>(std::atoi(value.c_str()));
    } else if (option == "--database") {
      options.database = value;
    } else {
      return usage();
    }
  }
  if (options.cluster.empty() || (options.workload != "kvwrite" && options.workload != "kvreadwrite") ||
      options.duration <= 0 || options.keySize == 0 || options.valueSize < 2) {
    return usage();
  }
  ClusterConfiguration configuration;
  configuration.servers = options.cluster;
  ClusterDatabase db = ClusterDatabase::open(options.database, configuration);
  if (!db.isOpen()) {
    std::fprintf(stderr, "sqlite-bridge-bench-cluster: %s\n", db.lastError().message.c_str());
    return 1;
  }
  if (!db.execute("CREATE TABLE IF NOT EXISTS model (key TEXT, value TEXT, UNIQUE(key))")) {
    std::fprintf(stderr, "sqlite-bridge-bench-cluster: %s\n", db.lastError().message.c_str());
    return 1;
  }
  Letters letters;
  std::vector<std::string> keys;
  long writes = 0;
  long reads = 0;
  long errors = 0;
  std::vector<Row> rows;
  const auto start = std::chrono::steady_clock::now();
  const auto end = start + std::chrono::duration<double>(options.duration);
  while (std::chrono::steady_clock::now() < end) {
    const bool read = options.workload == "kvreadwrite" && !keys.empty() && letters.coin();
    if (read) {
      const std::string& key = keys[letters.below(keys.size())];
      if (db.execute("SELECT value FROM model WHERE key = ?", {Value(key)}, &rows) && rows.size() == 1) {
        ++reads;
      } else {
        ++errors;
      }
      continue;
    }
    std::string key = letters.random(options.keySize);
    std::string value = std::string(options.valueSize / 2, letters.random(1)[0]) +
                        letters.random(options.valueSize - options.valueSize / 2);
    if (db.execute("INSERT OR REPLACE INTO model(key, value) VALUES(?, ?)", {Value(key), Value(std::move(value))})) {
      ++writes;
      if (options.workload == "kvreadwrite") keys.push_back(std::move(key));
    } else {
      ++errors;
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("workload %s seconds %.3f writes %ld reads %ld writes_per_second %.1f reads_per_second %.1f errors %ld\n",
              options.workload.c_str(), seconds, writes, reads, static_cast<double>(writes) / seconds,
              static_cast<double>(reads) / seconds, errors);
  return errors == 0 ? 0 : 1;
}
