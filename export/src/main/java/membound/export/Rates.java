package membound.export;

import membound.model.machine.Ceiling;
import membound.model.machine.ComputeCeiling;
import membound.model.machine.Device;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.Precision;

/**
 * The rates every tool takes, chosen once: main-memory bandwidth, the matrix rate per precision, the vector rate.
 * From a profile the matrix rate is what its GEMM measured (a tool's "peak" field then holds an attained rate, and
 * its efficiency flag stays 1); from a catalog entry it is the datasheet's dense peak (the tools' own files hold
 * peaks).
 */
final class Rates {

    private Rates() {
    }

    /** Main memory's read bandwidth: what streaming weights and activations runs at. */
    static FigureLog.Chosen memory(FigureLog log) {
        Ceiling read = log.input().machine().device().mainMemory().ceiling(AccessPattern.READ);
        return log.choose("main-memory read bandwidth", read);
    }

    /**
     * The matrix rate in {@code precision}: the device's own ceiling in it, else the nearest wider one it has
     * (said); null where the device has none.
     */
    static FigureLog.Chosen matrix(FigureLog log, Precision precision, String key) {
        Device device = log.input().machine().device();
        ComputeCeiling c = device.compute().get(precision);
        if (c == null) {
            c = device.computeFor(precision);
            if (c == null) {
                return null;
            }
            log.note(key + ": " + device.name() + " has no " + precision.label() + " ceiling: its "
                    + c.precision().label() + " one is written");
        }
        return matrix(log, c);
    }

    static FigureLog.Chosen matrix(FigureLog log, ComputeCeiling c) {
        if (log.input().fromProfile()) {
            Ceiling gemm = c.attainableGemm();
            if (gemm.hasMeasured()) {
                return new FigureLog.Chosen(gemm.measured(), Origin.MEASURED, gemm.measuredSource());
            }
            Ceiling peak = c.peakDense().hasDatasheet() ? c.peakDense() : gemm;
            return log.datasheetStandIn(c.precision().label() + " GEMM rate", peak.datasheet(),
                    peak.datasheetSource());
        }
        return log.choose(c.precision().label() + " dense peak", c.peakDense());
    }

    /** The vector (non-matrix, FP32) rate elementwise work runs at; null where the device has none. */
    static FigureLog.Chosen vector(FigureLog log) {
        Ceiling v = log.input().machine().device().vectorFlops();
        return v == null ? null : log.choose("vector (FP32, outside the matrix units) rate", v);
    }
}
