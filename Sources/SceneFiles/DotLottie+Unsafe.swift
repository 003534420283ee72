internal import CZip
import Render

// The zip access of DotLottie.swift (its safe twin holds the layout and
// the limits): libzip reads the archive from memory, and every entry is
// inflated in chunks, bounded, so that an entry whose header lies about
// its size still stops at the limit.

enum ZipArchive {
  /// The entries `wanted` selects, by name, each inflated.
  static func read(
    _ bytes: [UInt8], wanted: (String) -> Bool, maximumEntries: Int, maximumEntryBytes: Int, maximumTotalBytes: Int
  ) throws(ResourceError) -> [String: [UInt8]] {
    let result: Result<[String: [UInt8]], ResourceError> = bytes.withUnsafeBytes { buffer in
      var error = zip_error_t()
      zip_error_init(&error)
      defer { zip_error_fini(&error) }
      guard let source = zip_source_buffer_create(buffer.baseAddress, zip_uint64_t(buffer.count), 0, &error) else {
        return .failure(ResourceError(String(cString: zip_error_strerror(&error))))
      }
      guard let archive = zip_open_from_source(source, ZIP_RDONLY, &error) else {
        zip_source_free(source)
        return .failure(ResourceError(String(cString: zip_error_strerror(&error))))
      }
      defer { zip_discard(archive) }
      let count = zip_get_num_entries(archive, 0)
      guard count >= 0, count <= maximumEntries else {
        return .failure(ResourceError("more than \(maximumEntries) entries"))
      }
      var entries: [String: [UInt8]] = [:]
      var total = 0
      for index in 0..<zip_uint64_t(count) {
        guard let cName = zip_get_name(archive, index, 0) else { continue }
        let name = String(cString: cName)
        guard wanted(name) else { continue }
        var stat = zip_stat_t()
        zip_stat_init(&stat)
        guard zip_stat_index(archive, index, 0, &stat) == 0 else { return .failure(ResourceError("cannot read \(name)")) }
        if stat.valid & zip_uint64_t(ZIP_STAT_SIZE) != 0, stat.size > zip_uint64_t(maximumEntryBytes) {
          return .failure(ResourceError("\(name) inflates to more than \(maximumEntryBytes >> 20) MiB"))
        }
        guard let file = zip_fopen_index(archive, index, 0) else {
          return .failure(ResourceError("cannot open \(name): \(String(cString: zip_strerror(archive)))"))
        }
        defer { zip_fclose(file) }
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
          let n = chunk.withUnsafeMutableBytes { zip_fread(file, $0.baseAddress, zip_uint64_t($0.count)) }
          if n < 0 { return .failure(ResourceError("cannot inflate \(name): \(String(cString: zip_file_strerror(file)))")) }
          if n == 0 { break }
          data += chunk[0..<Int(n)]
          total += Int(n)
          if data.count > maximumEntryBytes {
            return .failure(ResourceError("\(name) inflates to more than \(maximumEntryBytes >> 20) MiB"))
          }
          if total > maximumTotalBytes {
            return .failure(ResourceError("the archive inflates to more than \(maximumTotalBytes >> 20) MiB"))
          }
        }
        entries[name] = data
      }
      return .success(entries)
    }
    return try result.get()
  }
}
