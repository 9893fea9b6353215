package membound.model.roofline;

import java.util.List;

import membound.vocabulary.AccessPattern;
import membound.vocabulary.BadInputException;
import membound.vocabulary.Precision;
import membound.vocabulary.RowOperation;

/**
 * One operation of a step, repeated {@code count} times per step (per layer, per micro-batch, ...).
 * FLOPs and bytes are per repetition, so the working set that picks a memory tier is one
 * repetition's bytes.
 *
 * @param flops FLOPs executed, as the hardware runs them (a causal FlashAttention skips masked tiles)
 * @param modelFlops FLOPs the model needs by the PaLM convention (Chowdhery et al. 2022, appendix B):
 *        matrix multiplications only, attention counted without causal savings; MFU's numerator
 * @param bytesRead bytes read from memory at the chosen precisions, assuming each operand crosses the
 *        memory bus once (ideal tiling)
 * @param linkBytes bytes sent over a link per repetition (transfers only)
 * @param linkMessages messages per repetition, each paying the link's latency (transfers only)
 * @param overlapsBackward a data-parallel gradient all-reduce that may hide behind the backward pass
 * @param shapes the products a GEMM runs per repetition (several for a backward pass that runs two); their
 *        FLOPs split in proportion to m·n·k. Empty when unknown: the GEMM is then timed at the square rate
 * @param rowWork what an elementwise operation of a measured kind does per repetition, or null: it is then
 *        timed by its FLOPs at the vector rate
 */
public record Operation(String name, OperationClass operationClass, Kernel kernel, Precision precision,
                        Placement placement, double count, double flops, double modelFlops, double bytesRead,
                        double bytesWritten, AccessPattern accessPattern, double linkBytes, double linkMessages,
                        boolean overlapsBackward, List<OperationShape> shapes, RowWork rowWork) {

    /**
     * The elements an elementwise operation of kind {@code operation} processes per repetition, on rows of
     * {@code rowLength}.
     */
    public record RowWork(RowOperation operation, double elements, double rowLength) {

        public RowWork {
            if (operation == null || !(elements >= 0) || Double.isInfinite(elements) || !(rowLength >= 1)) {
                throw new BadInputException("row work needs an operation, elements >= 0 and a row length >= 1: "
                        + "operation=" + operation + ", elements=" + elements + ", rowLength=" + rowLength);
            }
        }
    }

    public Operation(String name, OperationClass operationClass, Kernel kernel, Precision precision,
                     Placement placement, double count, double flops, double modelFlops, double bytesRead,
                     double bytesWritten, AccessPattern accessPattern, double linkBytes, double linkMessages,
                     boolean overlapsBackward, List<OperationShape> shapes) {
        this(name, operationClass, kernel, precision, placement, count, flops, modelFlops, bytesRead, bytesWritten,
                accessPattern, linkBytes, linkMessages, overlapsBackward, shapes, null);
    }

    public Operation(String name, OperationClass operationClass, Kernel kernel, Precision precision,
                     Placement placement, double count, double flops, double modelFlops, double bytesRead,
                     double bytesWritten, AccessPattern accessPattern, double linkBytes, double linkMessages,
                     boolean overlapsBackward) {
        this(name, operationClass, kernel, precision, placement, count, flops, modelFlops, bytesRead, bytesWritten,
                accessPattern, linkBytes, linkMessages, overlapsBackward, List.of(), null);
    }

    public Operation {
        if (name == null || operationClass == null || kernel == null || placement == null) {
            throw new BadInputException("operation needs a name, class, kernel and placement");
        }
        if (!(count >= 0) || !(flops >= 0) || !(modelFlops >= 0) || !(bytesRead >= 0) || !(bytesWritten >= 0)
                || !(linkBytes >= 0) || !(linkMessages >= 0)) {
            throw new BadInputException("operation " + name + " must have finite non-negative sizes");
        }
        if (accessPattern == null) {
            accessPattern = AccessPattern.COPY;
        }
        if (precision == null) {
            precision = Precision.FP32;
        }
        shapes = shapes == null ? List.of() : List.copyOf(shapes);
    }

    /** This operation doing {@code work} (an elementwise operation of a measured kind). */
    public Operation withRowWork(RowWork work) {
        return new Operation(name, operationClass, kernel, precision, placement, count, flops, modelFlops, bytesRead,
                bytesWritten, accessPattern, linkBytes, linkMessages, overlapsBackward, shapes, work);
    }

    public double bytes() {
        return bytesRead + bytesWritten;
    }

    public double totalFlops() {
        return flops * count;
    }

    public double totalModelFlops() {
        return modelFlops * count;
    }

    public double totalBytes() {
        return bytes() * count;
    }

    /** FLOPs per byte of memory traffic: where the operation sits on the roofline's x axis. */
    public double arithmeticIntensity() {
        double bytes = bytes();
        return bytes == 0 ? Double.POSITIVE_INFINITY : flops / bytes;
    }

    public Operation times(double factor) {
        return new Operation(name, operationClass, kernel, precision, placement, count * factor, flops, modelFlops,
                bytesRead, bytesWritten, accessPattern, linkBytes, linkMessages, overlapsBackward, shapes, rowWork);
    }

    public Operation as(OperationClass replaced, String replacedName) {
        return new Operation(replacedName, replaced, kernel, precision, placement, count, flops,
                replaced == OperationClass.RECOMPUTE ? 0 : modelFlops, bytesRead, bytesWritten, accessPattern,
                linkBytes, linkMessages, overlapsBackward, shapes, rowWork);
    }
}
