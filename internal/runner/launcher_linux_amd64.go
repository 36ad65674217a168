package runner

// launcherCode is the launcher's machine code for x86-64 Linux, assembled
// from the listing beside it (launcherAsm; TestLauncherCodeAssembles checks
// the two agree wherever GNU as is installed). It is started as
//
//	launcher D PATH ARGV0 ARGV1 ...
//
// with its environment passed on: it vforks, the child closes descriptor D
// (a single digit) and execs PATH with ARGV0 ARGV1 ... and the environment
// (exit status 127 when it cannot), and the launcher waits for it and
// writes 152 bytes to D: the child's wait status (4 bytes, then 4 of
// padding) and its struct rusage (144 bytes). It exits 0 when the report
// was written, 126 when vfork, wait4 or the write failed, and 2 with fewer
// than four arguments. It touches no memory but its stack, so the high-water
// mark a child inherits from it (see Peak) is the few pages it has.
var launcherCode = []byte{
	// _start: argc < 4 is a usage error
	0x48, 0x8b, 0x1c, 0x24, //                 mov    rbx, [rsp]
	0x48, 0x83, 0xfb, 0x04, //                 cmp    rbx, 4
	0x0f, 0x8c, 0xaf, 0x00, 0x00, 0x00, //     jl     usage
	0x4c, 0x8d, 0x64, 0x24, 0x08, //           lea    r12, [rsp+8]           argv
	0x4d, 0x8d, 0x6c, 0xdc, 0x08, //           lea    r13, [r12+rbx*8+8]     envp
	0x49, 0x8b, 0x44, 0x24, 0x08, //           mov    rax, [r12+8]           argv[1]
	0x44, 0x0f, 0xb6, 0x30, //                 movzx  r14d, byte [rax]
	0x41, 0x83, 0xee, 0x30, //                 sub    r14d, '0'             the report descriptor
	0xb8, 0x3a, 0x00, 0x00, 0x00, //           mov    eax, 58               vfork
	0x0f, 0x05, //                             syscall
	0x48, 0x85, 0xc0, //                       test   rax, rax
	0x74, 0x56, //                             je     child
	0x78, 0x7e, //                             js     failed
	0x49, 0x89, 0xc7, //                       mov    r15, rax              the child's pid
	0x48, 0x81, 0xec, 0xa0, 0x00, 0x00, 0x00, // sub  rsp, 160              status and rusage
	0x48, 0xc7, 0x04, 0x24, 0x00, 0x00, 0x00, 0x00, // mov qword [rsp], 0
	// reap:
	0x44, 0x89, 0xff, //                       mov    edi, r15d
	0x48, 0x89, 0xe6, //                       mov    rsi, rsp              &status
	0x31, 0xd2, //                             xor    edx, edx
	0x4c, 0x8d, 0x54, 0x24, 0x08, //           lea    r10, [rsp+8]          &rusage
	0xb8, 0x3d, 0x00, 0x00, 0x00, //           mov    eax, 61               wait4
	0x0f, 0x05, //                             syscall
	0x48, 0x83, 0xf8, 0xfc, //                 cmp    rax, -4               EINTR
	0x74, 0xe6, //                             je     reap
	0x48, 0x85, 0xc0, //                       test   rax, rax
	0x78, 0x4d, //                             js     failed
	0x44, 0x89, 0xf7, //                       mov    edi, r14d
	0x48, 0x89, 0xe6, //                       mov    rsi, rsp
	0xba, 0x98, 0x00, 0x00, 0x00, //           mov    edx, 152
	0xb8, 0x01, 0x00, 0x00, 0x00, //           mov    eax, 1                write
	0x0f, 0x05, //                             syscall
	0x48, 0x3d, 0x98, 0x00, 0x00, 0x00, //     cmp    rax, 152
	0x75, 0x33, //                             jne    failed
	0x31, 0xff, //                             xor    edi, edi
	0xb8, 0xe7, 0x00, 0x00, 0x00, //           mov    eax, 231              exit_group(0)
	0x0f, 0x05, //                             syscall
	// child:
	0x44, 0x89, 0xf7, //                       mov    edi, r14d
	0xb8, 0x03, 0x00, 0x00, 0x00, //           mov    eax, 3                close(D)
	0x0f, 0x05, //                             syscall
	0x49, 0x8b, 0x7c, 0x24, 0x10, //           mov    rdi, [r12+16]         PATH
	0x49, 0x8d, 0x74, 0x24, 0x18, //           lea    rsi, [r12+24]         ARGV0 ...
	0x4c, 0x89, 0xea, //                       mov    rdx, r13              envp
	0xb8, 0x3b, 0x00, 0x00, 0x00, //           mov    eax, 59               execve
	0x0f, 0x05, //                             syscall
	0xbf, 0x7f, 0x00, 0x00, 0x00, //           mov    edi, 127
	0xb8, 0x3c, 0x00, 0x00, 0x00, //           mov    eax, 60               exit(127)
	0x0f, 0x05, //                             syscall
	// failed:
	0xbf, 0x7e, 0x00, 0x00, 0x00, //           mov    edi, 126
	0xb8, 0xe7, 0x00, 0x00, 0x00, //           mov    eax, 231              exit_group(126)
	0x0f, 0x05, //                             syscall
	// usage:
	0xbf, 0x02, 0x00, 0x00, 0x00, //           mov    edi, 2
	0xb8, 0xe7, 0x00, 0x00, 0x00, //           mov    eax, 231              exit_group(2)
	0x0f, 0x05, //                             syscall
}

// launcherMachine is the ELF e_machine of launcherCode: EM_X86_64.
const launcherMachine = 62

// launcherAsm is launcherCode in GNU as syntax.
const launcherAsm = `
	.intel_syntax noprefix
	.globl _start
_start:
	mov rbx, [rsp]
	cmp rbx, 4
	jl usage
	lea r12, [rsp+8]
	lea r13, [r12+rbx*8+8]
	mov rax, [r12+8]
	movzx r14d, byte ptr [rax]
	sub r14d, 48
	mov eax, 58
	syscall
	test rax, rax
	jz child
	js failed
	mov r15, rax
	sub rsp, 160
	mov qword ptr [rsp], 0
reap:
	mov edi, r15d
	mov rsi, rsp
	xor edx, edx
	lea r10, [rsp+8]
	mov eax, 61
	syscall
	cmp rax, -4
	je reap
	test rax, rax
	js failed
	mov edi, r14d
	mov rsi, rsp
	mov edx, 152
	mov eax, 1
	syscall
	cmp rax, 152
	jne failed
	xor edi, edi
	mov eax, 231
	syscall
child:
	mov edi, r14d
	mov eax, 3
	syscall
	mov rdi, [r12+16]
	lea rsi, [r12+24]
	mov rdx, r13
	mov eax, 59
	syscall
	mov edi, 127
	mov eax, 60
	syscall
failed:
	mov edi, 126
	mov eax, 231
	syscall
usage:
	mov edi, 2
	mov eax, 231
	syscall
`
