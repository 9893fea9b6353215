package membound.profile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.stream.Collectors;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleDeserializers;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.type.LogicalType;

import membound.vocabulary.BadInputException;
import membound.vocabulary.Labelled;
import membound.vocabulary.ProductShape;
import membound.vocabulary.files.InputFiles;

/**
 * Reads and writes profiles.
 *
 * <p>Writes are deterministic, so that a profile survives write → read → write byte for byte: keys in
 * the order of the record components (sorted for maps), absent values left out, two-space indent,
 * {@code \n} line ends and a final newline, and numbers in one form: a whole number is
 * written as an integer ({@code 273000000000}; up to 2^53, where
 * doubles are exact integers), any other number in the shortest form that reads back
 * to the same double (Jackson's Schubfach writer, the same on every JDK).
 *
 * <p>Reads are strict: the {@code "schema"} must be {@value Profile#SCHEMA} and the
 * {@code "schemaVersion"} from 1 to {@value Profile#SCHEMA_VERSION} (an older one is migrated,
 * {@link ProfileMigration}; any other is refused with the version found), unknown keys, duplicate keys, strings where
 * numbers belong (but the documented {@code "NaN"}), fractions where integers belong and trailing
 * content are errors. Every error is a one-line {@link BadInputException} naming the file, the JSON path
 * and the problem.
 */
public final class ProfileJson {

    /** How deep JSON may nest: a profile nests 6 levels, tools' outputs fewer; deeper is hostile, not data. */
    public static final int MAX_DEPTH = 64;

    private static final ObjectMapper MAPPER = mapper();
    private static final ObjectWriter WRITER = MAPPER.writer(prettyPrinter());

    private ProfileJson() {
    }

    /** Reads a profile file. */
    public static Profile read(Path file) {
        return read(InputFiles.readBytes(file, "profile", InputFiles.Kind.PROFILE), file.toString());
    }

    /** Reads a profile from {@code json}; {@code file} names it in errors. */
    public static Profile read(byte[] json, String file) {
        JsonNode root = readTree(json, file, "profile");
        long version = checkSchema(root, file);
        boolean migrated = version < Profile.SCHEMA_VERSION;
        if (version < 2) {
            ProfileMigration.fromVersion1((com.fasterxml.jackson.databind.node.ObjectNode) root);
        }
        if (version < 3) {
            // The calibrator's rules are looked up only where a migration applies them (a profile with entries).
            ProfileMigration.typeBandwidthEntries((com.fasterxml.jackson.databind.node.ObjectNode) root,
                    CeilingRules::installed);
        }
        if (migrated) {
            ProfileMigration.assumeWriteAllocation((com.fasterxml.jackson.databind.node.ObjectNode) root);
            ((com.fasterxml.jackson.databind.node.ObjectNode) root).put("schemaVersion", Profile.SCHEMA_VERSION);
        }
        KnownFields.check(root, Profile.class, "", file);
        try {
            if (!migrated) {
                return MAPPER.readerFor(Profile.class).readValue(json);
            }
            Profile bound = MAPPER.readerFor(Profile.class).readValue(root);
            return version < 3 ? ProfileMigration.storeCeilings(bound, CeilingRules::installed) : bound;
        } catch (IOException e) {
            throw describe("profile", file, e);
        }
    }

    /**
     * Whether these bytes are a JSON object whose {@code "schema"} is {@value Profile#SCHEMA}: a file that says it is
     * a profile (valid or not), as opposed to other JSON. Nothing is checked beyond that key.
     */
    public static boolean claimsToBeAProfile(byte[] json) {
        try {
            JsonNode root = MAPPER.readTree(json);
            return root != null && root.isObject() && root.path("schema").isTextual()
                    && Profile.SCHEMA.equals(root.get("schema").textValue());
        } catch (IOException e) {
            return false;
        }
    }

    /** Reads a profile from text. */
    public static Profile read(String json, String file) {
        return read(json.getBytes(StandardCharsets.UTF_8), file);
    }

    /** The profile as UTF-8 JSON, in the one form this class writes. */
    public static byte[] toBytes(Profile profile) {
        try {
            byte[] body = WRITER.writeValueAsBytes(profile);
            byte[] withNewline = java.util.Arrays.copyOf(body, body.length + 1);
            withNewline[body.length] = '\n';
            return withNewline;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a valid profile must serialize: " + e.getOriginalMessage(), e);
        }
    }

    /** The profile as JSON text (see {@link #toBytes}). */
    public static String toJson(Profile profile) {
        return new String(toBytes(profile), StandardCharsets.UTF_8);
    }

    /** Any value (a summary, a comparison) as JSON text, formatted as profiles are. */
    public static String toJson(Object value) {
        try {
            return WRITER.writeValueAsString(value) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("value must serialize: " + e.getOriginalMessage(), e);
        }
    }

    /** The profile as a JSON tree, for commands that print part of it. */
    public static JsonNode toTree(Profile profile) {
        return MAPPER.valueToTree(profile);
    }

    /**
     * Reads a JSON file into a tree with the same strictness and error messages as profiles; for
     * importers of JSON tool output. {@code what} names the kind of file in errors ("nvbandwidth output").
     */
    public static JsonNode readTree(Path file, String what) {
        return readTree(InputFiles.readBytes(file, what, InputFiles.Kind.TOOL_OUTPUT), file.toString(), what);
    }

    /**
     * A mapper with the parser settings of profiles (duplicate keys refused, nesting bounded, nothing after the
     * value), for readers of other JSON (config.json, recorded validations) that build their own trees.
     */
    public static ObjectMapper strictMapper() {
        return MAPPER.copy();
    }

    /** Reads JSON text into a tree with the strictness and errors of {@link #readTree(Path, String)}. */
    public static JsonNode readTree(byte[] json, String file, String what) {
        return readTree(json, file, what, false);
    }

    /** As {@link #readTree(byte[], String, String)}, for outputs whose top level is an array (JMH's results). */
    public static JsonNode readArray(byte[] json, String file, String what) {
        return readTree(json, file, what, true);
    }

    private static JsonNode readTree(byte[] json, String file, String what, boolean array) {
        String kind = array ? "a JSON array" : "a JSON object";
        if (json.length == 0 || new String(json, StandardCharsets.UTF_8).isBlank()) {
            throw new BadInputException(what + " must be " + kind + ", not an empty file: file=" + file);
        }
        try {
            JsonNode root = MAPPER.readTree(json);
            if (root == null || (array ? !root.isArray() : !root.isObject())) {
                throw new BadInputException(what + " must be " + kind + ": file=" + file + ", found="
                        + (root == null ? "nothing" : root.getNodeType().toString().toLowerCase(java.util.Locale.ROOT)));
            }
            return root;
        } catch (IOException e) {
            throw describe(what, file, e);
        }
    }

    /** The profile's schema version, which must be one this code reads (1, migrated, or {@value Profile#SCHEMA_VERSION}). */
    private static long checkSchema(JsonNode root, String file) {
        JsonNode schema = root.get("schema");
        if (schema == null || !schema.isTextual() || !Profile.SCHEMA.equals(schema.textValue())) {
            throw new BadInputException("profile schema must be " + Profile.SCHEMA + ": file=" + file + ", schema="
                    + (schema == null ? "absent" : schema.toString()));
        }
        JsonNode version = root.get("schemaVersion");
        if (version == null || !version.isIntegralNumber()) {
            throw new BadInputException("profile schemaVersion must be from 1 to " + Profile.SCHEMA_VERSION + ": file=" + file
                    + ", schemaVersion=" + (version == null ? "absent" : version.toString()));
        }
        if (version.asLong() < 1 || version.asLong() > Profile.SCHEMA_VERSION) {
            // Version 1 is the first: nothing older exists to migrate, anything newer needs a newer reader.
            String why = version.asLong() > Profile.SCHEMA_VERSION
                    ? " (written by a newer membound; read it with that version)"
                    : " (no such version was ever written)";
            throw new BadInputException("profile schemaVersion must be from 1 to " + Profile.SCHEMA_VERSION + ": file=" + file
                    + ", schemaVersion=" + version.asLong() + why);
        }
        return version.asLong();
    }

    /** A Jackson exception as one line: the file, where in it, and what is wrong. */
    static BadInputException describe(String what, String file, IOException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BadInputException bad) {
                return new BadInputException(bad.getMessage() + " (file=" + file + at(e) + ")", e);
            }
        }
        if (e instanceof StreamConstraintsException c) {
            return new BadInputException(what + " must nest at most " + MAX_DEPTH + " levels deep and stay within "
                    + "JSON's size limits: file=" + file + ", problem=" + firstLine(c.getOriginalMessage()), e);
        }
        if (e instanceof UnrecognizedPropertyException u) {
            String known = u.getKnownPropertyIds() == null ? "" : u.getKnownPropertyIds().stream()
                    .map(Object::toString).sorted().collect(Collectors.joining(", "));
            return new BadInputException(what + " field must be one of " + known + ": file=" + file + at(e)
                    + ", field=" + u.getPropertyName(), e);
        }
        if (e instanceof MismatchedInputException m && m.getOriginalMessage() != null
                && m.getOriginalMessage().startsWith("Trailing token")) {
            return new BadInputException(what + " must be one JSON value with nothing after it: file=" + file
                    + location(m.getLocation()), e);
        }
        if (e instanceof MismatchedInputException m) {
            String target = m.getTargetType() == null ? "another type" : typeName(m.getTargetType());
            return new BadInputException(what + " value must be " + target + ": file=" + file + at(e)
                    + location(m.getLocation()) + ", problem=" + firstLine(m.getOriginalMessage()), e);
        }
        if (e instanceof JsonMappingException m) {
            return new BadInputException(what + " value must be valid: file=" + file + at(e)
                    + ", problem=" + firstLine(m.getOriginalMessage()), e);
        }
        if (e instanceof JsonEOFException eof) {
            return new BadInputException(what + " must be complete JSON (the file ends early): file=" + file
                    + location(eof.getLocation()), e);
        }
        if (e instanceof JsonParseException || e instanceof StreamReadException) {
            StreamReadException p = (StreamReadException) e;
            return new BadInputException(what + " must be valid JSON: file=" + file + location(p.getLocation())
                    + ", problem=" + firstLine(p.getOriginalMessage()), e);
        }
        return new BadInputException(what + " must be readable JSON: file=" + file + ", problem="
                + firstLine(e.getMessage()), e);
    }

    private static String at(IOException e) {
        if (!(e instanceof JsonMappingException m) || m.getPath().isEmpty()) {
            return "";
        }
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference ref : m.getPath()) {
            if (ref.getFieldName() != null) {
                if (path.length() > 0) {
                    path.append('.');
                }
                path.append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                path.append('[').append(ref.getIndex()).append(']');
            }
        }
        return path.length() == 0 ? "" : ", at=" + path;
    }

    private static String location(JsonLocation location) {
        if (location == null || location.getLineNr() < 0) {
            return "";
        }
        return ", line=" + location.getLineNr() + ", column=" + location.getColumnNr();
    }

    private static String typeName(Class<?> type) {
        if (type == double.class || type == Double.class || type == float.class || type == Float.class) {
            return "a number";
        }
        if (type == long.class || type == Long.class || type == int.class || type == Integer.class) {
            return "a whole number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a string";
        }
        if (java.util.Collection.class.isAssignableFrom(type)) {
            return "an array";
        }
        if (type.isEnum()) {
            return "a string";
        }
        return "an object (" + type.getSimpleName() + ")";
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unknown";
        }
        String line = message.strip();
        int newline = line.indexOf('\n');
        return newline < 0 ? line : line.substring(0, newline).strip();
    }

    private static ObjectMapper mapper() {
        JsonFactory factory = JsonFactory.builder()
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
                .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER)
                .build();
        SimpleModule numbers = new SimpleModule("membound-numbers");
        numbers.addSerializer(Double.class, new NumberWriter());
        numbers.addSerializer(double.class, new NumberWriter());
        // Every vocabulary word is written and read by its one label (bf16, gpu, DRAM, nn): one naming convention.
        numbers.addSerializer(Labelled.class, new LabelWriter());
        numbers.setDeserializers(new LabelReaders());
        numbers.addSerializer(ProductShape.class, new ShapeWriter());
        numbers.addDeserializer(ProductShape.class, new ShapeReader());
        JsonMapper mapper = JsonMapper.builder(factory)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .serializationInclusion(JsonInclude.Include.NON_NULL)
                .addModule(numbers)
                .build();
        // A string is a string: no number or boolean turns into one silently, and no string into a number.
        for (LogicalType type : new LogicalType[] {LogicalType.Textual, LogicalType.Integer, LogicalType.Float,
                LogicalType.Boolean}) {
            mapper.coercionConfigFor(type).setCoercion(CoercionInputShape.Integer,
                    type == LogicalType.Integer || type == LogicalType.Float ? CoercionAction.TryConvert
                            : CoercionAction.Fail);
            mapper.coercionConfigFor(type).setCoercion(CoercionInputShape.Float,
                    type == LogicalType.Float ? CoercionAction.TryConvert : CoercionAction.Fail);
            mapper.coercionConfigFor(type).setCoercion(CoercionInputShape.Boolean,
                    type == LogicalType.Boolean ? CoercionAction.TryConvert : CoercionAction.Fail);
            if (type != LogicalType.Textual) {
                mapper.coercionConfigFor(type).setCoercion(CoercionInputShape.String, CoercionAction.Fail);
            }
            mapper.coercionConfigFor(type).setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
        }
        return mapper;
    }

    private static DefaultPrettyPrinter prettyPrinter() {
        DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
        Separators separators = Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                .withObjectEmptySeparator("")
                .withArrayEmptySeparator("");
        return new DefaultPrettyPrinter(separators).withObjectIndenter(indenter).withArrayIndenter(indenter);
    }

    /** A vocabulary word as its label. */
    private static final class LabelWriter extends StdSerializer<Labelled> {
        private static final long serialVersionUID = 1L;

        LabelWriter() {
            super(Labelled.class);
        }

        @Override
        public void serialize(Labelled value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeString(value.label());
        }
    }

    /** Reads every {@link Labelled} enum by its exact label; an unknown one lists the known labels. */
    private static final class LabelReaders extends SimpleDeserializers {
        private static final long serialVersionUID = 1L;

        @Override
        public JsonDeserializer<?> findEnumDeserializer(Class<?> type, DeserializationConfig config,
                                                        BeanDescription beanDesc) {
            if (!Labelled.class.isAssignableFrom(type)) {
                return null;
            }
            return new LabelReader(type);
        }
    }

    private static final class LabelReader extends StdDeserializer<Object> {
        private static final long serialVersionUID = 1L;

        /** How errors name each word's field, as the schema document does. */
        private static final java.util.Map<Class<?>, String> FIELD_NAMES = java.util.Map.ofEntries(
                java.util.Map.entry(ProvenanceKind.class, "provenance.kind"),
                java.util.Map.entry(membound.vocabulary.DeviceKind.class, "device.kind"),
                java.util.Map.entry(membound.vocabulary.LinkKind.class, "link.kind"),
                java.util.Map.entry(membound.vocabulary.MemoryLevel.class, "level"),
                java.util.Map.entry(membound.vocabulary.AccessPattern.class, "access"),
                java.util.Map.entry(ComputeEntry.Kind.class, "compute.kind"),
                java.util.Map.entry(Nominal.State.class, "state"),
                java.util.Map.entry(membound.vocabulary.Precision.class, "precision"),
                java.util.Map.entry(LevelCeiling.ByteCounting.class, "ceiling.byteCounting"),
                java.util.Map.entry(WriteAllocation.Answer.class, "writeAllocation.answer"),
                java.util.Map.entry(membound.vocabulary.RowOperation.class, "operations.operation"));

        LabelReader(Class<?> type) {
            super(type);
        }

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.currentToken() != JsonToken.VALUE_STRING) {
                return ctxt.handleUnexpectedToken(handledType(), p);
            }
            String what = FIELD_NAMES.getOrDefault(handledType(),
                    p.currentName() == null ? handledType().getSimpleName() : p.currentName());
            return Labelled.parse((Class) handledType(), what, p.getText());
        }
    }

    /** A product shape as {@code {batch?, m, n, k, layout}}: the batch only when there is more than one product. */
    private static final class ShapeWriter extends StdSerializer<ProductShape> {
        private static final long serialVersionUID = 1L;

        ShapeWriter() {
            super(ProductShape.class);
        }

        @Override
        public void serialize(ProductShape shape, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeStartObject();
            if (shape.batch() > 1) {
                gen.writeNumberField("batch", shape.batch());
            }
            gen.writeNumberField("m", shape.m());
            gen.writeNumberField("n", shape.n());
            gen.writeNumberField("k", shape.k());
            gen.writeStringField("layout", shape.layout().label());
            gen.writeEndObject();
        }
    }

    private static final class ShapeReader extends StdDeserializer<ProductShape> {
        private static final long serialVersionUID = 1L;

        ShapeReader() {
            super(ProductShape.class);
        }

        @Override
        public ProductShape deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonNode node = ctxt.readTree(p);
            if (!node.isObject()) {
                return (ProductShape) ctxt.handleUnexpectedToken(ProductShape.class, p);
            }
            JsonNode layout = node.get("layout");
            if (layout == null || !layout.isTextual()) {
                throw new BadInputException("compute.shape.layout must be one of "
                        + Labelled.known(ProductShape.Layout.class) + ": compute.shape.layout=" + layout);
            }
            return new ProductShape(node.has("batch") ? dimension(node, "batch") : 1, dimension(node, "m"),
                    dimension(node, "n"), dimension(node, "k"), ProductShape.Layout.ofLabel(layout.textValue()));
        }

        private static int dimension(JsonNode node, String name) {
            JsonNode value = node.get(name);
            if (value == null || !value.canConvertToInt() || !value.isIntegralNumber()) {
                throw new BadInputException("compute.shape." + name + " must be a whole number from 1 to "
                        + Integer.MAX_VALUE + ": compute.shape." + name + "=" + (value == null ? "<missing>" : value));
            }
            return value.intValue();
        }
    }

    /** Whole numbers as integers, everything else in the shortest form that reads back the same. */
    private static final class NumberWriter extends StdSerializer<Double> {
        private static final long serialVersionUID = 1L;

        private static final double MAX_EXACT_LONG = 9007199254740992.0;

        NumberWriter() {
            super(Double.class);
        }

        @Override
        public void serialize(Double value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            double v = value;
            // Below 2^53 every whole double is an exact long: integers read best and round-trip exactly.
            if (Double.isNaN(v) || Double.isInfinite(v)) {
                gen.writeString(Double.toString(v));
            } else if (v == Math.rint(v) && Math.abs(v) <= MAX_EXACT_LONG) {
                gen.writeNumber((long) v);
            } else {
                gen.writeNumber(v);
            }
        }
    }
}
