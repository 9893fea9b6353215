package membound.model.workload;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import membound.vocabulary.BadInputException;
import membound.vocabulary.text.Names;

/**
 * Built-in architectures. Each is the architecture part of the model's published Hugging Face
 * {@code config.json}, kept under {@code membound/model/presets/} with its URL in {@code _source},
 * and read by the same {@link HuggingFaceConfig} parser a user's file goes through.
 */
public final class Presets {

    /** Preset names in the order {@code predict --help} lists them. */
    public static final List<String> NAMES = List.of(
            "gpt2", "gpt2-xl", "llama-3.2-1b", "llama-3.2-3b", "llama-3.1-8b", "llama-3.3-70b",
            "qwen2.5-7b", "mixtral-8x7b", "gpt-oss-20b", "llama-3.1-405b");

    private static final Map<String, String> ALIASES = Map.ofEntries(
            Map.entry("gpt2-124m", "gpt2"),
            Map.entry("gpt-2", "gpt2"),
            Map.entry("gpt2-1.5b", "gpt2-xl"),
            Map.entry("gpt-2-xl", "gpt2-xl"),
            Map.entry("llama-3.3-70b-instruct", "llama-3.3-70b"),
            Map.entry("mixtral-8x7b-v0.1", "mixtral-8x7b"));

    private static volatile Map<String, Transformer> loaded;

    private Presets() {
    }

    /** The preset with that name (case-insensitive; a Hugging Face id such as meta-llama/Llama-3.1-8B works too). */
    public static Transformer get(String name) {
        Map<String, Transformer> all = all();
        String key = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        // A Hugging Face id (meta-llama/Llama-3.1-8B) names the preset by its last part.
        key = key.substring(key.lastIndexOf('/') + 1);
        key = ALIASES.getOrDefault(key, key);
        Transformer preset = all.get(key);
        if (preset != null) {
            return preset;
        }
        List<String> known = new ArrayList<>(NAMES);
        String close = Names.suggestion(name, known);
        throw new BadInputException("model must be a preset or a config.json path: model=" + name
                + (close.isEmpty() ? " (presets: " + String.join(", ", NAMES) + ")" : close));
    }

    /** A preset name, or the path of a config.json (anything ending in .json or naming an existing file). */
    public static Transformer resolve(String nameOrPath) {
        if (nameOrPath == null || nameOrPath.isBlank()) {
            throw new BadInputException("model must be a preset or a config.json path: model=" + nameOrPath);
        }
        Path path = membound.vocabulary.files.PathNames.of("model", nameOrPath);
        if (nameOrPath.endsWith(".json") || Files.isRegularFile(path)) {
            return HuggingFaceConfig.read(Files.isDirectory(path) ? path.resolve("config.json") : path);
        }
        if (Files.isDirectory(path) && Files.isRegularFile(path.resolve("config.json"))) {
            return HuggingFaceConfig.read(path.resolve("config.json"));
        }
        return get(nameOrPath);
    }

    public static Map<String, Transformer> all() {
        Map<String, Transformer> result = loaded;
        if (result == null) {
            Map<String, Transformer> built = new LinkedHashMap<>();
            for (String name : NAMES) {
                built.put(name, load(name));
            }
            result = Collections.unmodifiableMap(built);
            loaded = result;
        }
        return result;
    }

    private static Transformer load(String name) {
        String resource = "/membound/model/presets/" + name + ".json";
        try (InputStream in = Presets.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("preset resource missing: " + resource);
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            JsonNode root = membound.profile.ProfileJson.strictMapper().readTree(text);
            String source = root.path("_source").asText();
            Transformer parsed = HuggingFaceConfig.parse(text, source, name);
            return parsed.toBuilder().source(source).build().withName(name);
        } catch (IOException e) {
            throw new IllegalStateException("preset " + name + " is unreadable", e);
        }
    }
}
