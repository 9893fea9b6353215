package membound.export;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;

import membound.model.machine.Link;
import membound.vocabulary.Precision;

/**
 * GenZ's system dictionary as {@code get_inference_system} reads it with {@code real_values: true}
 * ({@code GenZ/LLM_inference/utils.py:89-95}): {@code Flops} in TFLOP/s at BF16 ({@code GenZ/unit.py}: compute
 * units are decimal, {@code System.compute_multiplier} derives the other precisions from it), {@code Memory_size}
 * in GiB and {@code Memory_BW} and {@code ICN} in GiB/s (GenZ's memory and bandwidth units are binary:
 * {@code unit.py} {@code binary_dicts}), {@code ICN_LL} in microseconds ({@code GenZ/system.py:37}). It reads
 * the dictionary with {@code .get}, so the provenance rides in the file under {@code membound}.
 */
final class GenzExport {

    static final double GIB = 1L << 30;

    private GenzExport() {
    }

    static Export build(ExportInput input, String fileName) {
        FigureLog log = new FigureLog(input, ExportTool.GENZ);
        ObjectNode system = ToolJson.object();
        var device = input.machine().device();
        FigureLog.Chosen bf16 = Rates.matrix(log, Precision.BF16, "Flops");
        system.put("Flops", log.write(fileName, "Flops", bf16, 1e12, "TFLOP/s", "FLOP/s"));
        system.put("Memory_size", log.write(fileName, "Memory_size", new FigureLog.Chosen(device.capacityBytes(),
                device.capacitySource().startsWith("measured") ? Origin.MEASURED : Origin.DATASHEET,
                device.capacitySource()), GIB, "GiB", "B"));
        FigureLog.Chosen memory = Rates.memory(log);
        system.put("Memory_BW", log.write(fileName, "Memory_BW", memory, GIB, "GiB/s", "B/s"));
        ExportLink link = ExportLink.of(log, Link.Kind.PEER);
        if (link == null) {
            link = ExportLink.of(log, Link.Kind.NETWORK);
        }
        if (link != null) {
            system.put("ICN", log.write(fileName, "ICN", link.bandwidth(), GIB, "GiB/s", "B/s"));
            if (link.latencyKnown()) {
                system.put("ICN_LL", log.write(fileName, "ICN_LL", new FigureLog.Chosen(link.latencySeconds(),
                        link.bandwidth().origin(), link.latencySource()), 1e-6, "us", "s"));
            } else {
                system.put("ICN_LL", log.neutral(fileName, "ICN_LL", 0, 1e-6, "us", "s", "link " + link.id()
                        + " has no latency figure (" + link.latencySource() + "); GenZ's own default is 1 us"));
            }
        } else {
            system.put("ICN", log.neutral(fileName, "ICN", memory.value(), GIB, "GiB/s", "B/s", "no link between "
                    + "devices in " + input.origin() + ": written as the device's main-memory bandwidth, so a run on "
                    + "one device is unchanged"));
            system.put("ICN_LL", log.neutral(fileName, "ICN_LL", 0, 1e-6, "us", "s", "no link between devices"));
        }
        FigureLog.Chosen fp8 = input.machine().device().compute().containsKey(Precision.FP8)
                ? Rates.matrix(log, input.machine().device().compute().get(Precision.FP8)) : null;
        if (fp8 != null && Math.abs(fp8.value() / bf16.value() - 2) > 0.05) {
            log.note(String.format(java.util.Locale.ROOT, "GenZ derives FP8 as 2 x Flops (System.compute_multiplier): "
                    + "%s, where the machine's own FP8 figure is %s (%s)", ToolJson.readable(2 * bf16.value(),
                    "FLOP/s"), ToolJson.readable(fp8.value(), "FLOP/s"), fp8.source()));
        }
        system.put("real_values", true);
        String command = command(fileName);
        system.set("membound", ToolJson.provenance(ExportTool.GENZ, input, log.figures(), log.notes(), command));
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put(fileName, ToolJson.bytes(system));
        return new Export(ExportTool.GENZ, files, log.figures(), log.notes(), command);
    }

    /** GenZ is a Python API: the dictionary is passed as {@code system_name}, with efficiencies 1 (figures attained). */
    static String command(String fileName) {
        return "python3 -c \"import json; from GenZ import prefill_moddeling; print(prefill_moddeling(model='MODEL', "
                + "batch_size=1, input_tokens=2048, system_name=json.load(open('" + fileName + "')), bits='bf16', "
                + "tensor_parallel=1, pipeline_parallel=1, system_eff=1)['Latency'])\"";
    }
}
