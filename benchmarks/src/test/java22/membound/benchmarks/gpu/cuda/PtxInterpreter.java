package membound.benchmarks.gpu.cuda;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the suite's PTX on the host, for the tests: a reader and interpreter of exactly the PTX subset the kernels
 * are written in (the integer, f32, f64 and bf16x2 instructions, global and shared loads and stores, reductions,
 * {@code bar.sync}, predicated branches), with PTX's semantics as the ISA manual defines them. Every thread of a
 * block runs to the next barrier before any passes it, blocks run one after another (the kernels share nothing
 * between blocks but atomics), and whatever a GPU would fault on fails here, naming the kernel and the line: a global
 * access outside the allocations or not aligned to its width, a register read before it is written, a thread that
 * exits while others wait at a barrier, an instruction this reader does not know.
 *
 * <p>It is not a GPU and measures nothing: it shows that the kernels compute what STREAM's closed form says, over a
 * grid-stride loop that both runs short of and past the arrays, before a GPU is lent to run them.
 */
final class PtxInterpreter {

    /** Where device allocations start: any nonzero, 256-aligned address. */
    static final long BASE = 0x7f00_0000_0000L;
    private static final int STEP_LIMIT = 50_000_000;

    record Instruction(String guard, boolean negated, String opcode, List<String> operands, int line) {
    }

    /** An entry: its parameters' names and types ({@code u64}, {@code f32}, ...), code, labels and shared variables. */
    record Entry(String name, List<String> parameters, List<String> types, List<Instruction> code,
                 Map<String, Integer> labels, Map<String, Integer> shared, int sharedBytes) {
    }

    private final Map<String, Entry> entries;
    private final ByteBuffer global;
    private long allocated;

    PtxInterpreter(String ptx, int globalBytes) {
        this.entries = parse(ptx);
        this.global = ByteBuffer.allocate(globalBytes).order(ByteOrder.LITTLE_ENDIAN);
        // cuMemAlloc's memory is not cleared: here it reads as NaN until written.
        Arrays.fill(global.array(), (byte) 0xFF);
    }

    Map<String, Entry> entries() {
        return entries;
    }

    // ---- device memory

    /** A device allocation of {@code bytes}, 256-byte aligned as cuMemAlloc's are. */
    long allocate(long bytes) {
        long pointer = BASE + allocated;
        allocated += (bytes + 255) / 256 * 256;
        if (allocated > global.capacity()) {
            throw new IllegalStateException("the interpreter's device memory is full");
        }
        return pointer;
    }

    ByteBuffer memory() {
        return global;
    }

    int offset(long address, int width, String what) {
        long offset = address - BASE;
        if (offset < 0 || offset + width > allocated) {
            throw new IllegalStateException(what + ": address 0x" + Long.toHexString(address) + " is outside the "
                    + "allocations (a GPU would fault: CUDA_ERROR_ILLEGAL_ADDRESS)");
        }
        if (address % width != 0) {
            throw new IllegalStateException(what + ": address 0x" + Long.toHexString(address) + " is not aligned to "
                    + width + " bytes (a GPU would fault: CUDA_ERROR_MISALIGNED_ADDRESS)");
        }
        return (int) offset;
    }

    // ---- reading PTX

    private static final Pattern ENTRY = Pattern.compile("\\.entry\\s+(\\w+)\\s*\\(([^)]*)\\)");
    private static final Pattern SHARED = Pattern.compile(
            "\\.shared\\s+(?:\\.align\\s+(\\d+)\\s+)?\\.(\\w+)\\s+(\\w+)\\[(\\d+)\\]\\s*;");

    static Map<String, Entry> parse(String ptx) {
        Map<String, Entry> entries = new LinkedHashMap<>();
        String[] lines = ptx.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            Matcher header = ENTRY.matcher(lines[i]);
            if (!header.find()) {
                continue;
            }
            List<String> parameters = new ArrayList<>();
            List<String> types = new ArrayList<>();
            for (String parameter : header.group(2).split(",")) {
                Matcher declared = Pattern.compile("\\.param\\s+\\.(\\w+)\\s+(\\w+)").matcher(parameter);
                if (declared.find()) {
                    types.add(declared.group(1));
                    parameters.add(declared.group(2));
                }
            }
            List<Instruction> code = new ArrayList<>();
            Map<String, Integer> labels = new HashMap<>();
            Map<String, Integer> shared = new HashMap<>();
            int sharedBytes = 0;
            int j = i + 1;
            for (; j < lines.length && !lines[j].startsWith("}"); j++) {
                String line = lines[j].replaceFirst("//.*", "").strip();
                Matcher label = Pattern.compile("^(\\w+):\\s*(.*)$").matcher(line);
                if (label.find()) {
                    labels.put(label.group(1), code.size());
                    line = label.group(2);
                }
                if (line.isEmpty() || line.equals("{")) {
                    continue;
                }
                Matcher variable = SHARED.matcher(line);
                if (variable.find()) {
                    int align = variable.group(1) == null ? 1 : Integer.parseInt(variable.group(1));
                    sharedBytes = (sharedBytes + align - 1) / align * align;
                    shared.put(variable.group(3), sharedBytes);
                    sharedBytes += width(variable.group(2)) * Integer.parseInt(variable.group(4));
                    continue;
                }
                if (line.startsWith(".reg")) {
                    continue;
                }
                if (!line.endsWith(";")) {
                    throw new IllegalStateException("line " + (j + 1) + ": not one instruction: " + line);
                }
                code.add(instruction(line.substring(0, line.length() - 1).strip(), j + 1));
            }
            entries.put(header.group(1), new Entry(header.group(1), parameters, types, code, labels, shared,
                    sharedBytes));
            i = j;
        }
        return entries;
    }

    private static Instruction instruction(String text, int line) {
        String guard = null;
        boolean negated = false;
        if (text.startsWith("@")) {
            int space = text.indexOf(' ');
            guard = text.substring(1, space);
            negated = guard.startsWith("!");
            guard = negated ? guard.substring(1) : guard;
            text = text.substring(space + 1).strip();
        }
        int space = text.indexOf(' ');
        String opcode = space < 0 ? text : text.substring(0, space);
        List<String> operands = new ArrayList<>();
        if (space >= 0) {
            int depth = 0;
            StringBuilder current = new StringBuilder();
            for (char ch : text.substring(space + 1).toCharArray()) {
                if (ch == '{' || ch == '[') {
                    depth++;
                } else if (ch == '}' || ch == ']') {
                    depth--;
                }
                if (ch == ',' && depth == 0) {
                    operands.add(current.toString().strip());
                    current.setLength(0);
                } else {
                    current.append(ch);
                }
            }
            operands.add(current.toString().strip());
        }
        return new Instruction(guard, negated, opcode, operands, line);
    }

    private static int width(String type) {
        return switch (type) {
            case "f64", "u64", "b64", "s64" -> 8;
            case "f32", "u32", "b32", "s32" -> 4;
            case "b16", "u16" -> 2;
            default -> throw new IllegalStateException("no width for ." + type);
        };
    }

    // ---- running

    /** One thread's state. */
    private static final class Thread {
        final int tid;
        final Map<String, Long> registers = new HashMap<>();
        int pc;
        boolean done;
        boolean atBarrier;

        Thread(int tid) {
            this.tid = tid;
        }
    }

    /** The block being run: its index, size and shared memory. */
    private record Block(int ctaid, int ntid, int nctaid, ByteBuffer shared) {
    }

    /**
     * Launches {@code name} on {@code grid} blocks of {@code threads} with a parameter block as {@code cuLaunchKernel}
     * takes it ({@code void*[]}, one pointer per parameter to its value), each value read as wide as the entry
     * declares it.
     */
    void launch(String name, int grid, int threads, MemorySegment parameterBlock) {
        Entry entry = entries.get(name);
        if (entry == null) {
            throw new IllegalStateException("no entry " + name + ": " + entries.keySet());
        }
        Map<String, Long> values = new HashMap<>();
        for (int i = 0; i < entry.parameters().size(); i++) {
            MemorySegment value = parameterBlock.getAtIndex(ValueLayout.ADDRESS, i).reinterpret(8);
            values.put(entry.parameters().get(i), width(entry.types().get(i)) == 8 ? value.get(ValueLayout.JAVA_LONG, 0)
                    : value.get(ValueLayout.JAVA_INT, 0) & 0xFFFF_FFFFL);
        }
        for (int ctaid = 0; ctaid < grid; ctaid++) {
            Block block = new Block(ctaid, threads, grid,
                    ByteBuffer.allocate(Math.max(8, entry.sharedBytes())).order(ByteOrder.LITTLE_ENDIAN));
            Arrays.fill(block.shared().array(), (byte) 0xFF);
            List<Thread> team = new ArrayList<>();
            for (int tid = 0; tid < threads; tid++) {
                team.add(new Thread(tid));
            }
            while (true) {
                for (Thread thread : team) {
                    if (!thread.done) {
                        thread.atBarrier = false;
                        run(entry, block, thread, values);
                    }
                }
                long exited = team.stream().filter(t -> t.done).count();
                if (exited == threads) {
                    break;
                }
                if (exited > 0) {
                    throw new IllegalStateException(name + ": " + exited + " threads of block " + ctaid
                            + " exited while the others wait at a barrier");
                }
            }
        }
    }

    private void run(Entry entry, Block block, Thread thread, Map<String, Long> parameters) {
        int steps = 0;
        while (true) {
            if (thread.pc >= entry.code().size()) {
                throw new IllegalStateException(entry.name() + ": ran off the end without ret");
            }
            if (++steps > STEP_LIMIT) {
                throw new IllegalStateException(entry.name() + ": thread " + thread.tid + " of block " + block.ctaid()
                        + " does not end");
            }
            Instruction instruction = entry.code().get(thread.pc++);
            if (instruction.guard() != null
                    && (read(entry, block, thread, instruction, instruction.guard()) != 0) == instruction.negated()) {
                continue;
            }
            try {
                switch (execute(entry, block, thread, instruction, parameters)) {
                    case BARRIER -> {
                        thread.atBarrier = true;
                        return;
                    }
                    case EXIT -> {
                        thread.done = true;
                        return;
                    }
                    case NEXT -> {
                    }
                }
            } catch (IllegalStateException e) {
                throw new IllegalStateException(entry.name() + " line " + instruction.line() + " ("
                        + instruction.opcode() + " " + String.join(", ", instruction.operands()) + "), thread "
                        + thread.tid + " of block " + block.ctaid() + ": " + e.getMessage(), e);
            }
        }
    }

    private enum Flow { NEXT, BARRIER, EXIT }

    private Flow execute(Entry entry, Block block, Thread thread, Instruction instruction,
                         Map<String, Long> parameters) {
        List<String> o = instruction.operands();
        String op = instruction.opcode();
        switch (op) {
            case "ret" -> {
                return Flow.EXIT;
            }
            case "bar.sync" -> {
                return Flow.BARRIER;
            }
            case "bra" -> {
                Integer target = entry.labels().get(o.get(0));
                if (target == null) {
                    throw new IllegalStateException("no label " + o.get(0));
                }
                thread.pc = target;
                return Flow.NEXT;
            }
            default -> {
            }
        }
        long a = o.size() > 1 && !o.get(1).startsWith("[") && !o.get(1).startsWith("{")
                ? read(entry, block, thread, instruction, o.get(1)) : 0;
        long b = o.size() > 2 ? read(entry, block, thread, instruction, o.get(2)) : 0;
        String d = o.isEmpty() ? null : o.get(0);
        switch (op) {
            case "ld.param.u64", "ld.param.f64", "ld.param.f32" -> {
                String name = o.get(1).substring(1, o.get(1).length() - 1);
                Long value = parameters.get(name);
                if (value == null) {
                    throw new IllegalStateException("no parameter " + name);
                }
                write(thread, d, op.endsWith("f32") ? value & 0xFFFF_FFFFL : value);
            }
            case "cvta.to.global.u64", "mov.u64", "mov.f64" -> write(thread, d, a);
            case "mov.u32", "mov.b32", "mov.f32" -> write(thread, d, a & 0xFFFF_FFFFL);
            case "add.u64" -> write(thread, d, a + b);
            case "add.u32" -> write(thread, d, (a + b) & 0xFFFF_FFFFL);
            case "mul.wide.u32" -> write(thread, d, (a & 0xFFFF_FFFFL) * (b & 0xFFFF_FFFFL));
            case "shl.b64" -> write(thread, d, a << b);
            case "shr.u64" -> write(thread, d, a >>> b);
            case "shl.b32" -> write(thread, d, (a << b) & 0xFFFF_FFFFL);
            case "shr.u32" -> write(thread, d, (a & 0xFFFF_FFFFL) >>> b);
            case "and.b32" -> write(thread, d, a & b & 0xFFFF_FFFFL);
            case "cvt.u64.u32" -> write(thread, d, a & 0xFFFF_FFFFL);
            case "cvt.u32.u16" -> write(thread, d, a & 0xFFFFL);
            case "selp.u32" -> write(thread, d, (read(entry, block, thread, instruction, o.get(3)) != 0 ? a : b)
                    & 0xFFFF_FFFFL);
            case "setp.lt.u64" -> write(thread, d, Long.compareUnsigned(a, b) < 0 ? 1 : 0);
            case "setp.ge.u64" -> write(thread, d, Long.compareUnsigned(a, b) >= 0 ? 1 : 0);
            case "setp.ge.u32" -> write(thread, d, (a & 0xFFFF_FFFFL) >= (b & 0xFFFF_FFFFL) ? 1 : 0);
            case "setp.ne.u32" -> write(thread, d, (a & 0xFFFF_FFFFL) != (b & 0xFFFF_FFFFL) ? 1 : 0);
            case "setp.eq.u32" -> write(thread, d, (a & 0xFFFF_FFFFL) == (b & 0xFFFF_FFFFL) ? 1 : 0);
            case "setp.neu.f32" -> {
                float x = f32(a);
                float y = f32(b);
                write(thread, d, Float.isNaN(x) || Float.isNaN(y) || x != y ? 1 : 0);
            }
            case "setp.neu.f64" -> {
                double x = f64(a);
                double y = f64(b);
                write(thread, d, Double.isNaN(x) || Double.isNaN(y) || x != y ? 1 : 0);
            }
            case "add.rn.f32" -> write(thread, d, bits(f32(a) + f32(b)));
            case "mul.rn.f32" -> write(thread, d, bits(f32(a) * f32(b)));
            case "fma.rn.f32" -> write(thread, d, bits(Math.fma(f32(a), f32(b),
                    f32(read(entry, block, thread, instruction, o.get(3))))));
            case "add.rn.f64" -> write(thread, d, Double.doubleToRawLongBits(f64(a) + f64(b)));
            case "mul.rn.f64" -> write(thread, d, Double.doubleToRawLongBits(f64(a) * f64(b)));
            case "fma.rn.f64" -> write(thread, d, Double.doubleToRawLongBits(Math.fma(f64(a), f64(b),
                    f64(read(entry, block, thread, instruction, o.get(3))))));
            case "cvt.f64.f32" -> write(thread, d, Double.doubleToRawLongBits(f32(a)));
            // a's bf16 in the upper half, b's in the lower (PTX ISA, cvt: .bf16x2)
            case "cvt.rn.bf16x2.f32" -> write(thread, d, (bf16(f32(a)) << 16 | bf16(f32(b))) & 0xFFFF_FFFFL);
            case "ld.global.f32", "ld.global.f64", "ld.global.b16", "ld.global.v4.f32", "ld.global.v4.b32",
                    "ld.global.v2.f64" -> load(thread, op, o, read(entry, block, thread, instruction, address(o.get(1))),
                    null);
            case "ld.shared.f64" -> load(thread, op, o, sharedAddress(entry, block, thread, instruction, o.get(1)),
                    block.shared());
            case "st.global.v4.f32", "st.global.v4.b32", "st.global.v2.f64" -> store(entry, block, thread, instruction,
                    op, read(entry, block, thread, instruction, address(o.get(0))), o.get(1), null);
            case "st.shared.f64" -> store(entry, block, thread, instruction, op,
                    sharedAddress(entry, block, thread, instruction, o.get(0)), o.get(1), block.shared());
            case "red.global.add.f64" -> {
                int at = offset(read(entry, block, thread, instruction, address(o.get(0))), 8, op);
                global.putDouble(at, global.getDouble(at) + f64(read(entry, block, thread, instruction, o.get(1))));
            }
            case "red.global.add.u32" -> {
                int at = offset(read(entry, block, thread, instruction, address(o.get(0))), 4, op);
                global.putInt(at, global.getInt(at) + (int) read(entry, block, thread, instruction, o.get(1)));
            }
            default -> throw new IllegalStateException("the interpreter does not know " + op + ": add it with its "
                    + "PTX ISA semantics");
        }
        return Flow.NEXT;
    }

    private static String address(String operand) {
        if (!operand.startsWith("[") || !operand.endsWith("]")) {
            throw new IllegalStateException("not an address: " + operand);
        }
        return operand.substring(1, operand.length() - 1).strip();
    }

    /** A shared-window address: a register holding one, or a shared variable by name. */
    private long sharedAddress(Entry entry, Block block, Thread thread, Instruction instruction, String operand) {
        return read(entry, block, thread, instruction, address(operand));
    }

    private void load(Thread thread, String op, List<String> o, long address, ByteBuffer shared) {
        String type = op.substring(op.lastIndexOf('.') + 1);
        int width = width(type);
        List<String> targets = o.get(0).startsWith("{") ? vector(o.get(0)) : List.of(o.get(0));
        int at = shared == null ? offset(address, width * targets.size(), op) : sharedOffset(shared, address,
                width * targets.size(), op);
        ByteBuffer memory = shared == null ? global : shared;
        for (int i = 0; i < targets.size(); i++) {
            int position = at + i * width;
            long value = switch (width) {
                case 8 -> memory.getLong(position);
                case 4 -> memory.getInt(position) & 0xFFFF_FFFFL;
                default -> memory.getShort(position) & 0xFFFFL;
            };
            write(thread, targets.get(i), value);
        }
    }

    private void store(Entry entry, Block block, Thread thread, Instruction instruction, String op, long address,
                       String source, ByteBuffer shared) {
        String type = op.substring(op.lastIndexOf('.') + 1);
        int width = width(type);
        List<String> values = source.startsWith("{") ? vector(source) : List.of(source);
        int at = shared == null ? offset(address, width * values.size(), op) : sharedOffset(shared, address,
                width * values.size(), op);
        ByteBuffer memory = shared == null ? global : shared;
        for (int i = 0; i < values.size(); i++) {
            long value = read(entry, block, thread, instruction, values.get(i));
            if (width == 8) {
                memory.putLong(at + i * width, value);
            } else {
                memory.putInt(at + i * width, (int) value);
            }
        }
    }

    private static int sharedOffset(ByteBuffer shared, long address, int width, String what) {
        if (address < 0 || address + width > shared.capacity() || address % width != 0) {
            throw new IllegalStateException(what + ": shared address " + address + " is outside the block's "
                    + shared.capacity() + " bytes or not aligned to " + width);
        }
        return (int) address;
    }

    private static List<String> vector(String operand) {
        List<String> registers = new ArrayList<>();
        for (String register : operand.substring(1, operand.length() - 1).split(",")) {
            registers.add(register.strip());
        }
        return registers;
    }

    private static void write(Thread thread, String register, long value) {
        if (!register.startsWith("%")) {
            throw new IllegalStateException("not a register: " + register);
        }
        thread.registers.put(register, value);
    }

    /** A register, a special register, a shared variable's address or an immediate, as bits. */
    private long read(Entry entry, Block block, Thread thread, Instruction instruction, String operand) {
        switch (operand) {
            case "%tid.x" -> {
                return thread.tid;
            }
            case "%ntid.x" -> {
                return block.ntid();
            }
            case "%ctaid.x" -> {
                return block.ctaid();
            }
            case "%nctaid.x" -> {
                return block.nctaid();
            }
            default -> {
            }
        }
        if (operand.startsWith("%")) {
            Long value = thread.registers.get(operand);
            if (value == null) {
                throw new IllegalStateException(operand + " is read before it is written");
            }
            return value;
        }
        if (entry.shared().containsKey(operand)) {
            return entry.shared().get(operand);
        }
        if (operand.startsWith("0f")) {
            return Long.parseLong(operand.substring(2), 16);
        }
        if (operand.startsWith("0d")) {
            return Long.parseUnsignedLong(operand.substring(2), 16);
        }
        if (operand.startsWith("0x")) {
            return Long.parseLong(operand.substring(2), 16);
        }
        try {
            return Long.parseLong(operand);
        } catch (NumberFormatException e) {
            throw new IllegalStateException("cannot read the operand " + operand);
        }
    }

    private static float f32(long bits) {
        return Float.intBitsToFloat((int) bits);
    }

    private static double f64(long bits) {
        return Double.longBitsToDouble(bits);
    }

    private static long bits(float value) {
        return Float.floatToRawIntBits(value) & 0xFFFF_FFFFL;
    }

    /** f32 to bf16, rounded to nearest even; a NaN stays a (quiet) NaN. */
    static long bf16(float value) {
        int bits = Float.floatToRawIntBits(value);
        if (Float.isNaN(value)) {
            return ((bits >>> 16) | 0x40) & 0xFFFF;
        }
        return ((bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16) & 0xFFFF;
    }
}
