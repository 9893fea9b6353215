package membound.model.workload;

import java.nio.file.Path;
import java.util.Locale;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import membound.vocabulary.BadInputException;
import membound.vocabulary.files.InputFiles;

/**
 * Reads the architecture out of a Hugging Face {@code config.json}: the file is read and parsed
 * here, and {@link ConfigInterpreter} lays the model out per {@code model_type} (GPT-2, GPT-NeoX,
 * Falcon, Llama, Mistral, Mixtral, Qwen2/3 dense and MoE, Gemma 1/2/3, Phi-3, Phi-3.5-MoE, OLMo 2,
 * gpt-oss, DeepSeek-V2/V3), with the defaults the Transformers library gives absent fields
 * ({@link TransformersDefaults}). Anything wrong is one line naming the file, the field and the value.
 */
public final class HuggingFaceConfig {

    /** Strict as profiles are read: a duplicate key is an error, not a silent choice of its last value. */
    private static final ObjectMapper JSON = membound.profile.ProfileJson.strictMapper();

    private HuggingFaceConfig() {
    }

    public static Transformer read(Path file) {
        String text = InputFiles.readText(file, "config.json", InputFiles.Kind.CONFIG);
        return parse(text, file.toString(), fallbackName(file));
    }

    /** A config.json is named after its directory (a checkpoint's); any other file after itself. */
    private static String fallbackName(Path file) {
        String own = file.getFileName() == null ? "config.json" : file.getFileName().toString();
        if (!own.equals("config.json")) {
            return own.endsWith(".json") ? own.substring(0, own.length() - ".json".length()) : own;
        }
        Path parent = file.toAbsolutePath().getParent();
        return parent != null && parent.getFileName() != null ? parent.getFileName().toString() : "config";
    }

    /**
     * @param origin the file name (or preset resource) for messages and the workload's source
     * @param fallbackName the name when the config has no {@code _name_or_path}
     */
    public static Transformer parse(String text, String origin, String fallbackName) {
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new BadInputException("config.json must be valid JSON: file=" + origin + " ("
                    + e.getOriginalMessage().replace('\n', ' ') + ")");
        }
        if (root == null || !root.isObject()) {
            throw new BadInputException("config.json must hold a JSON object: file=" + origin);
        }
        return ConfigInterpreter.interpret(root, origin, fallbackName);
    }
}
