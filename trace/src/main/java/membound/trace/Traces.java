package membound.trace;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

import com.fasterxml.jackson.core.JsonProcessingException;

import membound.trace.kineto.KinetoReader;
import membound.trace.nsys.NsysReader;
import membound.vocabulary.BadInputException;
import membound.vocabulary.files.InputFiles;

/**
 * The one door traces come in by: files and directories as the user names them, each file's form told by its first
 * bytes (gzip, SQLite, else JSON), a directory's traces read in parallel (one per rank), and the ranks checked to be
 * of one job. A file that is cut off (a gzip or a JSON document ended mid-write) is one line naming it and the byte
 * where reading stopped.
 */
public final class Traces {

    private static final String WHAT = "trace";

    private Traces() {
    }

    /** Every trace named: files as they are, directories' {@code .json}, {@code .json.gz} and {@code .sqlite} files. */
    public static List<RankTrace> read(List<Path> named) {
        if (named == null || named.isEmpty()) {
            throw new BadInputException("trace must be given: membound trace FILE|DIR...");
        }
        List<Path> files = new ArrayList<>();
        for (Path p : named) {
            if (Files.isDirectory(p)) {
                try (Stream<Path> listing = Files.list(p)) {
                    List<Path> found = listing.filter(Traces::looksLikeTrace).sorted(Comparator.comparing(Path::toString))
                            .toList();
                    if (found.isEmpty()) {
                        throw new BadInputException("trace directory must hold traces (*.json, *.json.gz, *.sqlite): "
                                + "directory=" + p);
                    }
                    files.addAll(found);
                } catch (IOException e) {
                    throw new BadInputException("trace directory must be readable: directory=" + p + ", problem="
                            + e.getMessage(), e);
                }
            } else {
                files.add(p);
            }
        }
        List<RankTrace> traces = readAll(files);
        checkOneJob(traces);
        return traces;
    }

    private static boolean looksLikeTrace(Path p) {
        String name = p.getFileName().toString().toLowerCase(Locale.ROOT);
        return Files.isRegularFile(p) && (name.endsWith(".json") || name.endsWith(".json.gz")
                || name.endsWith(".sqlite") || name.endsWith(".sqlite3"));
    }

    private static List<RankTrace> readAll(List<Path> files) {
        if (files.size() == 1) {
            return List.of(read(files.get(0)));
        }
        int threads = Math.min(files.size(), Runtime.getRuntime().availableProcessors());
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "trace-reader");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<RankTrace>> futures = new ArrayList<>();
            for (Path f : files) {
                futures.add(pool.submit(() -> read(f)));
            }
            List<RankTrace> out = new ArrayList<>();
            for (Future<RankTrace> f : futures) {
                out.add(f.get());
            }
            return out;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading traces", e);
        } finally {
            pool.shutdownNow();
        }
    }

    /** One trace file, in whatever form its first bytes say. */
    public static RankTrace read(Path file) {
        String name = file.toString();
        if (name.toLowerCase(Locale.ROOT).endsWith(".nsys-rep") || name.toLowerCase(Locale.ROOT).endsWith(".qdrep")) {
            throw new BadInputException("trace must be an Nsight Systems SQLite export, not its report: file=" + file
                    + " (export it: nsys export --type sqlite " + file.getFileName() + ")");
        }
        Counting raw = new Counting(InputFiles.openStream(file, WHAT, InputFiles.Kind.TRACE));
        try (InputStream in = new BufferedInputStream(raw, 1 << 16)) {
            in.mark(16);
            byte[] magic = in.readNBytes(16);
            in.reset();
            if (magic.length >= 2 && (magic[0] & 0xff) == 0x1f && (magic[1] & 0xff) == 0x8b) {
                return readJson(new BufferedInputStream(new GZIPInputStream(in, 1 << 16), 1 << 16), name, raw, true);
            }
            if (magic.length == 16 && new String(magic, 0, 15, java.nio.charset.StandardCharsets.US_ASCII)
                    .equals("SQLite format 3")) {
                in.close();
                return NsysReader.read(file);
            }
            return readJson(in, name, raw, false);
        } catch (ZipException e) {
            throw cut(name, "gzip", raw.count, e.getMessage());
        } catch (EOFException e) {
            throw cut(name, "gzip", raw.count, e.getMessage());
        } catch (IOException e) {
            throw new BadInputException("trace must be readable: file=" + name + ", problem=" + e.getMessage(), e);
        }
    }

    private static RankTrace readJson(InputStream in, String name, Counting raw, boolean gzip) throws IOException {
        try {
            return KinetoReader.read(in, name);
        } catch (JsonProcessingException e) {
            long at = e.getLocation() == null ? -1 : e.getLocation().getByteOffset();
            String problem = e.getOriginalMessage();
            boolean ended = e instanceof com.fasterxml.jackson.core.io.JsonEOFException;
            throw new BadInputException("trace must be complete, well-formed JSON" + (ended ? " (cut off mid-write?)"
                    : "") + ": file=" + name + ", byte=" + at + (gzip ? " of the decompressed JSON" : "")
                    + ", problem=" + problem, e);
        } catch (ZipException | EOFException e) {
            throw cut(name, "gzip", raw.count, e.getMessage());
        }
    }

    private static BadInputException cut(String name, String form, long at, String problem) {
        return new BadInputException("trace must be a complete " + form + " stream (truncated or corrupt): file=" + name
                + ", byte=" + at + " (of the file, where reading stopped), problem=" + problem);
    }

    /**
     * The ranks of one job: one world size, each rank once, as many ranks as the directory holds at most. A file
     * that names no rank is taken as it is (a single-process trace).
     */
    static void checkOneJob(List<RankTrace> traces) {
        if (traces.size() < 2) {
            return;
        }
        RankTrace first = traces.get(0);
        java.util.Set<Integer> ranks = new java.util.HashSet<>();
        for (RankTrace t : traces) {
            if (t.worldSize() != first.worldSize()) {
                throw new BadInputException("traces must be the ranks of one job (one world size): file=" + t.file()
                        + " has world_size=" + t.worldSize() + ", file=" + first.file() + " has world_size="
                        + first.worldSize());
            }
            if (t.rank() >= 0 && !ranks.add(t.rank())) {
                throw new BadInputException("traces must be the ranks of one job (each rank once): file=" + t.file()
                        + " repeats rank=" + t.rank());
            }
            if (t.gpu() != first.gpu()) {
                throw new BadInputException("traces must be the ranks of one job (all with GPU events or none): file="
                        + t.file() + " has gpu=" + t.gpu() + ", file=" + first.file() + " has gpu=" + first.gpu());
            }
        }
    }

    /** Counts the bytes read from the file, so a cut gzip is reported at the byte where it stopped. */
    private static final class Counting extends FilterInputStream {
        long count;

        Counting(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long s = super.skip(n);
            count += s;
            return s;
        }
    }
}
