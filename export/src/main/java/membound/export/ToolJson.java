package membound.export;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import membound.vocabulary.units.Units;

/** JSON as the tools read it: plain decimal numbers (no exponent), two-space indent, and the provenance block. */
final class ToolJson {

    static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);

    private ToolJson() {
    }

    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    static byte[] bytes(ObjectNode node) {
        try {
            return (MAPPER.writeValueAsString(node) + "\n").getBytes(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Where every figure came from, as one object: the tool and commit the files were made for, the profile or
     * catalog entry, and each figure with its key, value, unit, SI value, origin and source.
     */
    static ObjectNode provenance(ExportTool tool, ExportInput input, List<ExportedFigure> figures, List<String> notes,
                                 String command) {
        ObjectNode p = object();
        p.put("exportedBy", "membound export --to " + tool.label());
        p.put("tool", tool.label());
        p.put("toolRepository", "https://github.com/" + tool.repository());
        p.put("toolCommit", tool.commit());
        if (tool == ExportTool.ASTRA_SIM) {
            p.put("networkBackendCommit", "astra-sim/astra-network-analytical@" + ExportTool.ASTRA_NETWORK_COMMIT);
        }
        p.put("from", input.origin());
        p.put("basis", input.fromProfile() ? (input.measuredOnly() ? "measured only" : "measured, datasheet where "
                + "the profile has no figure") : "datasheet");
        p.put("machine", input.machine().name());
        p.put("device", input.machine().device().id());
        ArrayNode list = p.putArray("figures");
        for (ExportedFigure f : figures) {
            ObjectNode n = list.addObject();
            n.put("file", f.file());
            n.put("key", f.key());
            n.put("value", FigureLog.round(f.value()));
            n.put("unit", f.unit());
            n.put("siValue", FigureLog.round(f.siValue()));
            n.put("siUnit", f.siUnit());
            n.put("origin", f.origin().label());
            n.put("source", f.source());
        }
        ArrayNode noteList = p.putArray("notes");
        notes.forEach(noteList::add);
        p.put("command", command);
        return p;
    }

    /** A short readable form of an SI figure for notes: {@code 232.5 GB/s}, {@code 92.3 TFLOP/s}. */
    static String readable(double siValue, String siUnit) {
        return switch (siUnit) {
            case "B/s" -> Units.formatBandwidth(siValue);
            case "FLOP/s" -> Units.formatFlops(siValue);
            case "B" -> Units.formatBytes((long) siValue);
            default -> String.format(Locale.ROOT, "%.4g %s", siValue, siUnit);
        };
    }

    /** A name a tool can use as an identifier: lower case, letters, digits and dashes. */
    static String slug(String text) {
        String s = text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        return s.isEmpty() ? "machine" : s;
    }
}
