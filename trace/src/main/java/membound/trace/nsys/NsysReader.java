package membound.trace.nsys;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;

import membound.trace.RankTrace;
import membound.trace.StepRange;
import membound.trace.TraceAssembly;
import membound.trace.TraceAssembly.GpuKind;
import membound.vocabulary.BadInputException;

/**
 * Reads an Nsight Systems export ({@code nsys export --type sqlite}) by the schema NVIDIA documents: kernels from
 * {@code CUPTI_ACTIVITY_KIND_KERNEL} (names through {@code StringIds}), copies and memsets from
 * {@code CUPTI_ACTIVITY_KIND_MEMCPY} and {@code _MEMSET}, launches from {@code CUPTI_ACTIVITY_KIND_RUNTIME} (the
 * correlation id puts each kernel at the CPU time it was launched), and steps from {@code NVTX_EVENTS}: the push/pop
 * or start/end ranges whose text names a step ({@code ProfilerStep#N}, {@code step 12}, {@code iteration_3}, or the
 * name given as {@code stepRange}). Times are nanoseconds already. The database is opened read-only.
 */
public final class NsysReader {

    /** NVTX range event types in {@code NVTX_EVENTS.eventType}: push/pop (59) and start/end (60). */
    static final int NVTX_PUSH_POP_RANGE = 59;
    static final int NVTX_START_END_RANGE = 60;

    private static final Pattern STEP = Pattern.compile("(?i)^(ProfilerStep#\\d+|(train[_ ]?)?(step|iteration|iter)"
            + "[ _#:=-]*\\d+)$");

    private NsysReader() {
    }

    public static RankTrace read(Path file) {
        Properties properties = new Properties();
        properties.setProperty("open_mode", "1"); // SQLITE_OPEN_READONLY
        try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath(), properties)) {
            Set<String> tables = tables(db);
            if (!tables.contains("CUPTI_ACTIVITY_KIND_KERNEL") && !tables.contains("NVTX_EVENTS")) {
                throw new BadInputException("trace must be an Nsight Systems SQLite export (a table "
                        + "CUPTI_ACTIVITY_KIND_KERNEL or NVTX_EVENTS): file=" + file + ", tables=" + tables.size());
            }
            TraceAssembly assembly = new TraceAssembly();
            if (tables.contains("CUPTI_ACTIVITY_KIND_RUNTIME")) {
                query(db, "SELECT start, end, globalTid, correlationId FROM CUPTI_ACTIVITY_KIND_RUNTIME", rs ->
                        assembly.runtime(rs.getLong(1), rs.getLong(2) - rs.getLong(1), Long.hashCode(rs.getLong(3)),
                                rs.getLong(4), 0));
            }
            if (tables.contains("CUPTI_ACTIVITY_KIND_KERNEL")) {
                String name = tables.contains("StringIds")
                        ? "COALESCE(d.value, s.value, 'kernel')" : "'kernel'";
                String join = tables.contains("StringIds")
                        ? " LEFT JOIN StringIds d ON d.id = k.demangledName LEFT JOIN StringIds s ON s.id = k.shortName"
                        : "";
                query(db, "SELECT k.start, k.end, k.streamId, " + name + ", k.correlationId FROM "
                        + "CUPTI_ACTIVITY_KIND_KERNEL k" + join, rs -> assembly.gpu(GpuKind.KERNEL, rs.getLong(1),
                        rs.getLong(2) - rs.getLong(1), rs.getInt(3), rs.getString(4), 0, rs.getLong(5)));
            }
            if (tables.contains("CUPTI_ACTIVITY_KIND_MEMCPY")) {
                query(db, "SELECT start, end, streamId, correlationId FROM CUPTI_ACTIVITY_KIND_MEMCPY", rs ->
                        assembly.gpu(GpuKind.MEMCPY, rs.getLong(1), rs.getLong(2) - rs.getLong(1), rs.getInt(3),
                                "memcpy", 0, rs.getLong(4)));
            }
            if (tables.contains("CUPTI_ACTIVITY_KIND_MEMSET")) {
                query(db, "SELECT start, end, streamId, correlationId FROM CUPTI_ACTIVITY_KIND_MEMSET", rs ->
                        assembly.gpu(GpuKind.MEMSET, rs.getLong(1), rs.getLong(2) - rs.getLong(1), rs.getInt(3),
                                "memset", 0, rs.getLong(4)));
            }
            if (tables.contains("NVTX_EVENTS")) {
                String text = tables.contains("StringIds") ? "COALESCE(n.text, t.value)" : "n.text";
                String join = tables.contains("StringIds") ? " LEFT JOIN StringIds t ON t.id = n.textId" : "";
                query(db, "SELECT n.start, n.end, " + text + " FROM NVTX_EVENTS n" + join + " WHERE n.eventType IN ("
                        + NVTX_PUSH_POP_RANGE + ", " + NVTX_START_END_RANGE + ") AND n.end IS NOT NULL", rs -> {
                            String range = rs.getString(3);
                            if (range != null && STEP.matcher(range.strip()).matches()) {
                                assembly.step(new StepRange(range.strip(), rs.getLong(1), rs.getLong(2)));
                            }
                        });
            }
            List<String> devices = new ArrayList<>();
            if (tables.contains("TARGET_INFO_GPU")) {
                query(db, "SELECT name FROM TARGET_INFO_GPU", rs -> devices.add(rs.getString(1)));
            }
            List<String> notes = new ArrayList<>();
            notes.add("Nsight Systems export: kernels are classified by their names (the export links no PyTorch "
                    + "operators, so no shapes: time shares only)");
            return assembly.build(file.toString(), "nsys sqlite", -1, 0, devices, false, notes);
        } catch (SQLException e) {
            throw new BadInputException("trace must be a readable Nsight Systems SQLite export: file=" + file
                    + ", problem=" + e.getMessage().lines().findFirst().orElse("").toLowerCase(Locale.ROOT), e);
        }
    }

    private interface Row {
        void accept(ResultSet rs) throws SQLException;
    }

    private static void query(Connection db, String sql, Row row) throws SQLException {
        try (PreparedStatement s = db.prepareStatement(sql); ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                row.accept(rs);
            }
        }
    }

    private static Set<String> tables(Connection db) throws SQLException {
        Set<String> names = new HashSet<>();
        try (Statement s = db.createStatement();
             ResultSet rs = s.executeQuery("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }
}
