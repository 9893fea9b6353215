package membound.trace.kineto;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;

import membound.trace.RankTrace;
import membound.trace.TraceAssembly;
import membound.trace.TraceAssembly.GpuKind;
import membound.trace.classify.OperatorCosts;
import membound.vocabulary.BadInputException;

/**
 * Reads a PyTorch profiler trace as a stream of tokens, never as a tree: Kineto's Chrome-trace object
 * ({@code traceEvents} with {@code deviceProperties}, {@code distributedInfo}, {@code record_shapes}), every layout in
 * use since 2021 ({@code kernel}/{@code Kernel}, {@code cuda_runtime}/{@code Runtime}, {@code gpu_memcpy}/{@code Memcpy},
 * {@code cpu_op}/{@code Operator}, {@code External id}/{@code external id}), and the older form torch's own profiler
 * writes without Kineto: a top-level list of events with no categories. {@code ts} and {@code dur} are microseconds
 * whatever {@code displayTimeUnit} says, integers or with fractions down to the nanosecond, kept exact.
 */
public final class KinetoReader {

    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build()).build();

    /** What kind of event a {@code cat} names. */
    private enum Category { KERNEL, MEMCPY, MEMSET, RUNTIME, OPERATOR, IGNORED }

    private KinetoReader() {
    }

    /** The trace in {@code in} (already decompressed); {@code file} names it in errors. */
    public static RankTrace read(InputStream in, String file) throws IOException {
        TraceAssembly assembly = new TraceAssembly();
        int rank = -1;
        int worldSize = 0;
        boolean shapes = false;
        boolean sawEvents = false;
        List<String> devices = new ArrayList<>();
        String format;
        try (JsonParser p = JSON.createParser(in)) {
            JsonToken first = p.nextToken();
            if (first == JsonToken.START_ARRAY) {
                format = "chrome-trace list";
                readEvents(p, assembly, file);
                sawEvents = true;
            } else if (first == JsonToken.START_OBJECT) {
                format = "kineto";
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String field = p.currentName();
                    JsonToken value = p.nextToken();
                    switch (field) {
                        case "traceEvents" -> {
                            if (value != JsonToken.START_ARRAY) {
                                throw notATrace(file, "traceEvents is not a list");
                            }
                            readEvents(p, assembly, file);
                            sawEvents = true;
                        }
                        case "deviceProperties" -> {
                            if (value == JsonToken.START_ARRAY) {
                                while (p.nextToken() == JsonToken.START_OBJECT) {
                                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                                        String f = p.currentName();
                                        p.nextToken();
                                        if (f.equals("name")) {
                                            devices.add(p.getText());
                                        } else {
                                            p.skipChildren();
                                        }
                                    }
                                }
                            } else {
                                p.skipChildren();
                            }
                        }
                        case "distributedInfo" -> {
                            if (value == JsonToken.START_OBJECT) {
                                while (p.nextToken() == JsonToken.FIELD_NAME) {
                                    String f = p.currentName();
                                    p.nextToken();
                                    if (f.equals("rank") && p.currentToken().isNumeric()) {
                                        rank = p.getIntValue();
                                    } else if (f.equals("world_size") && p.currentToken().isNumeric()) {
                                        worldSize = p.getIntValue();
                                    } else {
                                        p.skipChildren();
                                    }
                                }
                            }
                        }
                        case "record_shapes" -> shapes = value == JsonToken.VALUE_TRUE
                                || value == JsonToken.VALUE_NUMBER_INT && p.getIntValue() != 0;
                        default -> p.skipChildren();
                    }
                }
            } else {
                throw notATrace(file, "it starts with " + (first == null ? "nothing" : first.asString()));
            }
        }
        if (!sawEvents) {
            throw notATrace(file, "it has no traceEvents");
        }
        List<String> notes = new ArrayList<>();
        shapes |= assembly.shapesSeen();
        if (!shapes) {
            notes.add("no operator input shapes (record_shapes): time shares only, no FLOPs or bytes");
        }
        return assembly.build(file, format, rank, worldSize, devices, shapes, notes);
    }

    static BadInputException notATrace(String file, String why) {
        return new BadInputException("trace must be a PyTorch profiler trace (Chrome-trace JSON: an object with "
                + "traceEvents, or a list of events) or an Nsight Systems SQLite export: file=" + file + " (" + why + ")");
    }

    /** Reusable holder for the fields of one event, which may come in any order. */
    private static final class Event {
        char ph;
        Category category;
        boolean hasCategory;
        String name;
        long tsNs;
        long durNs;
        int tid;
        long externalId;
        long correlation;
        int stream;
        List<long[]> dims;
        List<String> types;

        void reset() {
            ph = 0;
            category = Category.OPERATOR;
            hasCategory = false;
            name = null;
            tsNs = Long.MIN_VALUE;
            durNs = 0;
            tid = 0;
            externalId = 0;
            correlation = 0;
            stream = -1;
            dims = null;
            types = null;
        }
    }

    private static void readEvents(JsonParser p, TraceAssembly assembly, String file) throws IOException {
        Event e = new Event();
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.START_OBJECT) {
            e.reset();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "ph" -> e.ph = value == JsonToken.VALUE_STRING && p.getTextLength() == 1
                            ? p.getTextCharacters()[p.getTextOffset()] : '?';
                    case "cat" -> {
                        e.hasCategory = true;
                        e.category = category(p.getText());
                    }
                    case "name" -> e.name = value == JsonToken.VALUE_STRING ? p.getText() : null;
                    case "ts" -> e.tsNs = nanos(p, value);
                    case "dur" -> e.durNs = nanos(p, value);
                    case "tid" -> e.tid = value == JsonToken.VALUE_NUMBER_INT ? p.getIntValue() : p.getText().hashCode();
                    case "args" -> {
                        if (value == JsonToken.START_OBJECT) {
                            readArgs(p, e);
                        } else {
                            p.skipChildren();
                        }
                    }
                    default -> p.skipChildren();
                }
            }
            if (e.ph == 'X' && e.name != null && e.tsNs != Long.MIN_VALUE) {
                dispatch(e, assembly);
            }
        }
        if (t != JsonToken.END_ARRAY) {
            throw notATrace(file, "an event is not an object");
        }
    }

    private static void dispatch(Event e, TraceAssembly assembly) {
        switch (e.category) {
            case KERNEL -> assembly.gpu(GpuKind.KERNEL, e.tsNs, e.durNs, e.stream >= 0 ? e.stream : e.tid, e.name,
                    e.externalId, e.correlation);
            case MEMCPY -> assembly.gpu(GpuKind.MEMCPY, e.tsNs, e.durNs, e.stream >= 0 ? e.stream : e.tid, e.name,
                    e.externalId, e.correlation);
            case MEMSET -> assembly.gpu(GpuKind.MEMSET, e.tsNs, e.durNs, e.stream >= 0 ? e.stream : e.tid, e.name,
                    e.externalId, e.correlation);
            case RUNTIME -> assembly.runtime(e.tsNs, e.durNs, e.tid, e.correlation, e.externalId);
            case OPERATOR -> {
                if (e.dims != null) {
                    assembly.sawShapes();
                }
                assembly.operator(e.name, e.tsNs, e.durNs, e.tid, e.externalId,
                        e.dims == null ? OperatorCosts.Cost.UNKNOWN : OperatorCosts.of(e.name, e.dims, e.types));
            }
            case IGNORED -> {
                // python functions, GPU-side annotations, flows, counters
            }
        }
    }

    private static Category category(String cat) {
        if (cat == null) {
            return Category.OPERATOR;
        }
        return switch (cat) {
            case "kernel", "Kernel" -> Category.KERNEL;
            case "gpu_memcpy", "Memcpy" -> Category.MEMCPY;
            case "gpu_memset", "Memset" -> Category.MEMSET;
            case "cuda_runtime", "Runtime", "cuda_driver", "Driver" -> Category.RUNTIME;
            case "cpu_op", "Operator", "user_annotation", "operator" -> Category.OPERATOR;
            default -> Category.IGNORED;
        };
    }

    private static void readArgs(JsonParser p, Event e) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            switch (field) {
                case "External id", "external id" -> e.externalId = value.isNumeric() ? p.getLongValue() : 0;
                case "correlation" -> e.correlation = value.isNumeric() ? p.getLongValue() : 0;
                case "stream" -> e.stream = value == JsonToken.VALUE_NUMBER_INT ? p.getIntValue() : -1;
                case "Input Dims" -> e.dims = value == JsonToken.START_ARRAY ? dims(p) : null;
                case "Input type" -> e.types = value == JsonToken.START_ARRAY ? strings(p) : null;
                default -> p.skipChildren();
            }
        }
    }

    /** A list of shapes: each a list of extents; a non-list entry (a scalar's {@code []} is a list) is null. */
    private static List<long[]> dims(JsonParser p) throws IOException {
        List<long[]> shapes = new ArrayList<>();
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            if (t == JsonToken.START_ARRAY) {
                long[] shape = new long[4];
                int n = 0;
                boolean valid = true;
                JsonToken x;
                while ((x = p.nextToken()) != JsonToken.END_ARRAY) {
                    if (x == JsonToken.VALUE_NUMBER_INT) {
                        if (n == shape.length) {
                            shape = java.util.Arrays.copyOf(shape, n * 2);
                        }
                        shape[n++] = p.getLongValue();
                    } else {
                        valid = false;
                        p.skipChildren();
                    }
                }
                shapes.add(valid ? java.util.Arrays.copyOf(shape, n) : null);
            } else {
                p.skipChildren();
                shapes.add(null);
            }
        }
        return shapes;
    }

    private static List<String> strings(JsonParser p) throws IOException {
        List<String> list = new ArrayList<>();
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            list.add(t == JsonToken.VALUE_STRING ? p.getText() : null);
            p.skipChildren();
        }
        return list;
    }

    /**
     * Microseconds as the trace writes them (an integer, a decimal with up to nanosecond fractions, rarely a string),
     * as exact nanoseconds: a double of an epoch in microseconds cannot hold the nanoseconds, so the digits are read.
     */
    static long nanos(JsonParser p, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_NUMBER_INT) {
            return p.getLongValue() * 1000L;
        }
        if (value == JsonToken.VALUE_NUMBER_FLOAT || value == JsonToken.VALUE_STRING) {
            return parseMicros(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
        }
        p.skipChildren();
        return 0;
    }

    /** Decimal microseconds to nanoseconds, exactly to the nanosecond (further digits are dropped). */
    static long parseMicros(char[] text, int offset, int length) {
        long whole = 0;
        long fraction = 0;
        int fractionDigits = 0;
        boolean negative = false;
        boolean point = false;
        int end = offset + length;
        for (int i = offset; i < end; i++) {
            char c = text[i];
            if (c >= '0' && c <= '9') {
                if (!point) {
                    whole = whole * 10 + (c - '0');
                } else if (fractionDigits < 3) {
                    fraction = fraction * 10 + (c - '0');
                    fractionDigits++;
                }
            } else if (c == '.') {
                point = true;
            } else if (c == '-' && i == offset) {
                negative = true;
            } else if (c == 'e' || c == 'E') {
                // an exponent (1.7e15): rare; read the whole text as a double, to the precision a double has
                double micros = Double.parseDouble(new String(text, offset, length));
                return Math.round(micros * 1000.0);
            } else {
                break;
            }
        }
        while (fractionDigits < 3) {
            fraction *= 10;
            fractionDigits++;
        }
        long ns = whole * 1000L + fraction;
        return negative ? -ns : ns;
    }
}
