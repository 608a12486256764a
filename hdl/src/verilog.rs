//! Verilog emission: rust-hdl's `generate_verilog`, with its link lookups
//! indexed.
//!
//! rust-hdl 0.46's `ModuleDefines` (rust-hdl-core `module_defines.rs`)
//! answers "is this stub linked to a module argument?" and "which name is
//! this argument linked to?" by walking every link of the module and
//! formatting both of its names into fresh strings, once per stub, per
//! argument and per argument of every child. A module with many children
//! and ports costs arguments × children × child ports × links string
//! formats: emitting `hpcc_nic_core` took 33 s, all but a fraction in
//! those formats (perf, 2026-12-01), and every test that runs a whole NIC
//! on Verilator or Icarus paid it again in its process.
//!
//! [`generate_verilog`] visits the design with the same probe order and
//! writes the same text, byte for byte (checked against rust-hdl's on
//! every small top by `nic-hdl`'s tests and on every top by `make
//! test-full`), but builds per module, once: the link equivalences as a
//! map (first link wins, as rust-hdl's first match), the names each name
//! is linked to, the set of argument names and the set of names the
//! children's ports are linked to. The design checks (`check_all`:
//! connected inputs, logic loops, inputs not written) run first, as in
//! rust-hdl.
//!
//! This is the one place the project works around that cost; every
//! caller (`top::Top::verilog`, the Verilator and Icarus engines) uses it.

use rust_hdl::core::ast::{Verilog, VerilogLink, VerilogLiteral};
use rust_hdl::core::atom::{is_atom_signed, Atom, AtomKind};
use rust_hdl::core::block::Block;
use rust_hdl::core::check_error::check_all;
use rust_hdl::core::probe::Probe;
use rust_hdl::core::type_descriptor::{TypeDescriptor, TypeKind};
use rust_hdl::core::verilog_gen::{verilog_combinatorial, verilog_link_extraction};
use std::collections::{BTreeMap, HashMap, HashSet};

/// The Verilog of `uut` (top module `top`), as rust-hdl's
/// `generate_verilog` writes it. Panics, as rust-hdl's does, if the design
/// has an unconnected input, a logic loop or a written input.
pub fn generate_verilog(uut: &dyn Block) -> String {
    check_all(uut).unwrap();
    let mut defines = Defines::default();
    uut.accept("top", &mut defines);
    defines.text()
}

/// rust-hdl's own `generate_verilog`, for `uut` behind a `dyn`: the
/// reference [`generate_verilog`] is checked against.
pub fn rust_hdl_verilog(uut: &dyn Block) -> String {
    check_all(uut).unwrap();
    let mut defines = rust_hdl::core::module_defines::ModuleDefines::default();
    uut.accept("top", &mut defines);
    defines.defines()
}

struct SubModule {
    kind: String,
    name: String,
}

#[derive(PartialEq)]
struct EnumDef {
    type_name: String,
    discriminant: String,
    value: usize,
}

#[derive(Clone)]
struct AtomDetails {
    name: String,
    kind: AtomKind,
    width: usize,
    const_val: VerilogLiteral,
    signed: bool,
}

#[derive(Default)]
struct Module {
    atoms: Vec<AtomDetails>,
    sub_modules: Vec<SubModule>,
    enums: Vec<EnumDef>,
    code: Option<Verilog>,
    links: Vec<VerilogLink>,
}

/// The probe: collects every module's atoms, children, enums and code.
#[derive(Default)]
struct Defines {
    path: Vec<String>,
    namespace: Vec<String>,
    modules: BTreeMap<String, Module>,
}

fn atom_keyword(kind: &AtomKind) -> &'static str {
    match kind {
        AtomKind::InputParameter => "input wire",
        AtomKind::OutputParameter => "output reg",
        AtomKind::StubInputSignal => "reg",
        AtomKind::StubOutputSignal => "wire",
        AtomKind::Constant => "localparam",
        AtomKind::LocalSignal => "reg",
        AtomKind::InOutParameter => "inout wire",
        AtomKind::OutputPassthrough => "output wire",
    }
}

fn decl(x: &AtomDetails) -> String {
    let signed = if x.signed { "signed" } else { "" };
    let keyword = atom_keyword(&x.kind);
    if x.kind == AtomKind::Constant {
        format!("{keyword} {signed} {} = {};", x.name, x.const_val)
    } else if x.width == 1 {
        format!("{keyword} {signed} {};", x.name)
    } else {
        format!("{keyword} {signed} [{}:0] {};", x.width - 1, x.name)
    }
}

/// The two names a link joins, as rust-hdl's `get_link_equivalence`.
fn link_equivalence(link: &VerilogLink) -> (String, String) {
    match link {
        VerilogLink::Forward(l) => (
            format!("{}${}", l.other_name, l.my_name),
            format!("{}${}", l.owner_name, l.my_name),
        ),
        VerilogLink::Backward(l) => (
            format!("{}${}", l.owner_name, l.my_name),
            format!("{}${}", l.other_name, l.my_name),
        ),
        VerilogLink::Bidirectional(l) => {
            if l.my_name.is_empty() {
                (l.owner_name.clone(), l.other_name.clone())
            } else {
                (
                    format!("{}${}", l.other_name, l.my_name),
                    format!("{}${}", l.owner_name, l.my_name),
                )
            }
        }
    }
}

impl Defines {
    fn module(&mut self, path: &str) -> &mut Module {
        self.modules.entry(path.to_string()).or_default()
    }

    fn add_enums(&mut self, module: &str, descriptor: &TypeDescriptor) {
        let entry = self.module(module);
        match &descriptor.kind {
            TypeKind::Enum(labels) => {
                for (value, label) in labels.iter().enumerate() {
                    let def = EnumDef {
                        type_name: descriptor.name.clone(),
                        discriminant: label.clone(),
                        value,
                    };
                    if !entry.enums.contains(&def) {
                        entry.enums.push(def);
                    }
                }
            }
            TypeKind::Composite(items) => {
                for item in items {
                    self.add_enums(module, &item.kind);
                }
            }
            _ => {}
        }
    }

    fn parent(&self) -> String {
        self.path[..self.path.len() - 1].join("$")
    }
}

impl Probe for Defines {
    fn visit_start_scope(&mut self, name: &str, node: &dyn Block) {
        let parent = self.path.join("$");
        self.path.push(name.to_string());
        self.namespace.clear();
        let path = self.path.join("$");
        self.module(&parent).sub_modules.push(SubModule {
            kind: path.clone(),
            name: name.to_string(),
        });
        let code = node.hdl();
        let entry = self.module(&path);
        entry.links = match &code {
            Verilog::Combinatorial(c) => verilog_link_extraction(c),
            _ => vec![],
        };
        entry.code = Some(code);
    }

    fn visit_start_namespace(&mut self, name: &str, _node: &dyn Block) {
        self.namespace.push(name.to_string());
    }

    fn visit_atom(&mut self, name: &str, signal: &dyn Atom) {
        let module_path = self.path.join("$");
        let module_name = self.path.last().unwrap().clone();
        let name = if self.namespace.is_empty() {
            name.to_string()
        } else {
            format!("{}${}", self.namespace.join("$"), name)
        };
        let atom = AtomDetails {
            name: name.clone(),
            kind: signal.kind(),
            width: signal.bits(),
            const_val: signal.verilog(),
            signed: is_atom_signed(signal),
        };
        let parent = self.parent();
        if atom.kind.is_parameter() {
            let kind = if atom.kind == AtomKind::InputParameter {
                AtomKind::StubInputSignal
            } else {
                AtomKind::StubOutputSignal
            };
            let stub = AtomDetails {
                name: format!("{module_name}${name}"),
                kind,
                ..atom.clone()
            };
            self.module(&parent).atoms.push(stub);
        }
        let descriptor = signal.descriptor();
        self.add_enums(&module_path, &descriptor);
        self.add_enums(&parent, &descriptor);
        self.module(&module_path).atoms.push(atom);
    }

    fn visit_end_namespace(&mut self, _name: &str, _node: &dyn Block) {
        self.namespace.pop();
    }

    fn visit_end_scope(&mut self, _name: &str, _node: &dyn Block) {
        self.path.pop();
    }
}

/// One module's links, indexed once.
struct LinkIndex<'a> {
    /// For each name, the name its first link joins it to (rust-hdl's
    /// `get_linked_argument_name`).
    first: HashMap<String, String>,
    /// For each name, every name a link joins it to.
    all: HashMap<String, Vec<String>>,
    /// The module's argument (port) names.
    arguments: HashSet<&'a str>,
}

impl<'a> LinkIndex<'a> {
    fn new(module: &'a Module) -> Self {
        let mut first = HashMap::new();
        let mut all: HashMap<String, Vec<String>> = HashMap::new();
        for link in &module.links {
            let (a, b) = link_equivalence(link);
            first.entry(a.clone()).or_insert_with(|| b.clone());
            first.entry(b.clone()).or_insert_with(|| a.clone());
            all.entry(a.clone()).or_default().push(b.clone());
            all.entry(b).or_default().push(a);
        }
        let arguments = module
            .atoms
            .iter()
            .filter(|x| x.kind.is_parameter())
            .map(|x| x.name.as_str())
            .collect();
        Self {
            first,
            all,
            arguments,
        }
    }

    fn linked_name(&self, name: &str) -> String {
        self.first
            .get(name)
            .cloned()
            .unwrap_or_else(|| name.to_string())
    }

    fn is_argument(&self, name: &str) -> bool {
        self.arguments.contains(name)
    }

    fn linked_to_argument(&self, name: &str) -> bool {
        self.all
            .get(name)
            .is_some_and(|others| others.iter().any(|o| self.is_argument(o)))
    }
}

/// Lines with an indent, as rust-hdl's `CodeWriter`.
#[derive(Default)]
struct Writer {
    lines: Vec<(usize, String)>,
    indent: usize,
}

impl Writer {
    fn add(&mut self, text: impl AsRef<str>) {
        for piece in text.as_ref().split_terminator('\n') {
            self.lines.push((self.indent, piece.to_string()));
        }
    }
    fn add_line(&mut self, text: String) {
        self.lines.push((self.indent, text));
    }
    fn text(&self) -> String {
        let mut buf = String::new();
        for (indent, line) in &self.lines {
            buf += &"    ".repeat(*indent);
            buf += line;
            buf += "\n";
        }
        buf
    }
}

impl Defines {
    fn text(&self) -> String {
        let mut io = Writer::default();
        for (name, module) in &self.modules {
            if name.is_empty() || matches!(module.code, Some(Verilog::Blackbox(_))) {
                continue;
            }
            self.write_module(name, module, &mut io);
        }
        for module in self.modules.values() {
            match &module.code {
                Some(Verilog::Blackbox(b)) => io.add(&b.code),
                Some(Verilog::Wrapper(w)) => io.add(&w.cores),
                _ => {}
            }
        }
        io.text()
    }

    fn write_instance(&self, links: &LinkIndex, child: &SubModule, io: &mut Writer) {
        let entry = &self.modules[&child.kind];
        let kind = match &entry.code {
            Some(Verilog::Blackbox(b)) => &b.name,
            _ => &child.kind,
        };
        let args = entry
            .atoms
            .iter()
            .filter(|x| x.kind.is_parameter())
            .map(|x| {
                let arg = format!("{}${}", child.name, x.name);
                let arg = if links.linked_to_argument(&arg) {
                    links.linked_name(&arg)
                } else {
                    arg
                };
                format!(".{}({})", x.name, arg)
            })
            .collect::<Vec<_>>()
            .join(",\n");
        io.add(format!("{} {}(\n", kind, child.name));
        io.indent += 1;
        io.add(args);
        io.indent -= 1;
        io.add(");\n");
    }

    /// The names the children's ports are linked to (rust-hdl's
    /// `module_argument_is_passed_through_to_submodule`, for every
    /// argument at once).
    fn passed_to_children(&self, module: &Module, links: &LinkIndex) -> HashSet<String> {
        let mut names = HashSet::new();
        for child in &module.sub_modules {
            for atom in &self.modules[&child.kind].atoms {
                names.insert(links.linked_name(&format!("{}${}", child.name, atom.name)));
            }
        }
        names
    }

    fn write_module(&self, name: &str, module: &Module, io: &mut Writer) {
        let links = LinkIndex::new(module);
        let wrapper = matches!(module.code, Some(Verilog::Wrapper(_)));
        if wrapper {
            io.add("\n// v-- Setting output parameters to net type for wrapped code.\n");
        }
        let atoms: Vec<AtomDetails> = module
            .atoms
            .iter()
            .map(|x| {
                let mut y = x.clone();
                if wrapper && y.kind == AtomKind::OutputParameter {
                    y.kind = AtomKind::OutputPassthrough;
                }
                y
            })
            .collect();
        let args: Vec<&AtomDetails> = atoms.iter().filter(|x| x.kind.is_parameter()).collect();
        let of_kind = |k: AtomKind| atoms.iter().filter(move |x| x.kind == k);
        let arg_names: Vec<&str> = args.iter().map(|x| x.name.as_str()).collect();
        io.add(format!("\n\nmodule {}({});", name, arg_names.join(",")));
        io.indent += 1;
        if !args.is_empty() {
            io.add("\n// Module arguments");
            let passed = self.passed_to_children(module, &links);
            for x in &args {
                if x.kind == AtomKind::OutputParameter && passed.contains(&x.name) {
                    // A reg argument cannot be passed on to a child module.
                    let mut x = (*x).clone();
                    x.kind = AtomKind::OutputPassthrough;
                    io.add(decl(&x));
                } else {
                    io.add(decl(x));
                }
            }
        }
        if of_kind(AtomKind::Constant).next().is_some() {
            io.add("\n// Constant declarations");
            of_kind(AtomKind::Constant).for_each(|x| io.add(decl(x)));
        }
        if !module.enums.is_empty() && !wrapper {
            io.add("\n// Enums");
            for e in &module.enums {
                io.add(format!(
                    "localparam {} = {};",
                    e.discriminant.replace("::", "$"),
                    e.value
                ));
            }
        }
        let stubs: Vec<&AtomDetails> = atoms.iter().filter(|x| x.kind.is_stub()).collect();
        if !stubs.is_empty() && !wrapper {
            io.add("\n// Stub signals");
            for x in stubs {
                if !links.linked_to_argument(&x.name) {
                    io.add(decl(x));
                }
            }
        }
        if of_kind(AtomKind::LocalSignal).next().is_some() && !wrapper {
            io.add("\n// Local signals");
            of_kind(AtomKind::LocalSignal).for_each(|x| io.add(decl(x)));
        }
        if !module.sub_modules.is_empty() && !wrapper {
            io.add("\n// Sub module instances");
            for child in &module.sub_modules {
                self.write_instance(&links, child, io);
            }
        }
        match &module.code {
            Some(Verilog::Combinatorial(code)) => {
                io.add("\n// Update code");
                io.add(verilog_combinatorial(code));
            }
            Some(Verilog::Custom(code)) => {
                io.add("\n// Update code (custom)");
                io.add(code);
            }
            Some(Verilog::Wrapper(c)) => {
                io.add("\n// Update code (wrapper)");
                io.add(&c.code);
            }
            _ => {}
        }
        for link in &module.links {
            let (a, b) = link_equivalence(link);
            if !links.is_argument(&a) && !links.is_argument(&b) {
                io.add_line(link_text(link));
            }
        }
        io.indent -= 1;
        io.add(format!("endmodule // {name}"));
    }
}

/// The statement that joins a link's two names.
fn link_text(link: &VerilogLink) -> String {
    let flat = |s: &str| s.replace('[', "$").replace(']', "");
    match link {
        VerilogLink::Forward(x) => format!(
            "always @(*) {}${} = {}${};",
            flat(&x.other_name),
            x.my_name,
            flat(&x.owner_name),
            x.my_name
        ),
        VerilogLink::Backward(x) => format!(
            "always @(*) {}${} = {}${};",
            flat(&x.owner_name),
            x.my_name,
            flat(&x.other_name),
            x.my_name
        ),
        VerilogLink::Bidirectional(x) => {
            if x.my_name.is_empty() {
                format!("assign {} = {};", x.owner_name, x.other_name)
            } else {
                format!(
                    "assign {}${} = {}${};",
                    x.owner_name, x.my_name, x.other_name, x.my_name
                )
            }
        }
    }
}
