/* The profile page: the JSON embedded, drawn by inline JavaScript as SVG
 * (heat maps, bars, a table); no network access.  Each drawn heat-map cell
 * is an SVG rect of class "cell" whose title holds its numbers (hover). */
#include "mpit/mpit_profile.h"

#include <string.h>

static const char head[] =
"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
"<title>ucmpi communication profile</title>\n<style>\n"
"body{font:14px sans-serif;margin:1.5em;color:#222}\n"
"h2{margin-top:1.6em;font-size:16px}\n"
"table{border-collapse:collapse}td,th{border:1px solid #ccc;"
"padding:2px 8px;text-align:right}th{background:#eee}\n"
"svg text{font:11px sans-serif}\n.cell:hover,.bar:hover{stroke:#000}\n"
"#tip{position:fixed;background:#ffe;border:1px solid #999;padding:3px 6px;"
"display:none;pointer-events:none}\n"
"</style></head><body>\n<h1>ucmpi communication profile</h1>\n"
"<p id=\"summary\"></p>\n"
"<h2>Bytes sent (row: sender, column: receiver)</h2><div id=\"hm-bytes\">"
"</div>\n<h2>Messages sent (row: sender, column: receiver)</h2>"
"<div id=\"hm-msgs\"></div>\n"
"<h2>Time blocked in MPI calls, per rank</h2><div id=\"wait\"></div>\n"
"<h2>Collectives: calls, bytes and algorithms</h2><div id=\"coll\"></div>\n"
"<h2>Per communicator (by context id)</h2><div id=\"comms\"></div>\n"
"<h2>Message sizes (sent, all ranks)</h2><div id=\"hist\"></div>\n"
"<div id=\"tip\"></div>\n"
"<script id=\"data\" type=\"application/json\">\n";

static const char tail[] =
"</script>\n<script>\n"
"'use strict';\n"
"const D=JSON.parse(document.getElementById('data').textContent);\n"
"const NS='http://www.w3.org/2000/svg';\n"
"function el(t,a,p){const e=document.createElementNS(NS,t);"
"for(const k in a)e.setAttribute(k,a[k]);if(p)p.appendChild(e);return e;}\n"
"const tip=document.getElementById('tip');\n"
"function hover(e,txt){el('title',{},e).textContent=txt;"
"e.addEventListener('mousemove',ev=>{tip.textContent=txt;"
"tip.style.display='block';tip.style.left=(ev.clientX+12)+'px';"
"tip.style.top=(ev.clientY+12)+'px';});"
"e.addEventListener('mouseleave',()=>{tip.style.display='none';});}\n"
"function fmt(v){return v>=1e9?(v/1e9).toFixed(2)+' G':v>=1e6?"
"(v/1e6).toFixed(2)+' M':v>=1e3?(v/1e3).toFixed(1)+' k':String(v);}\n"
"function heat(id,m,unit){const n=m.length,c=Math.max(8,Math.min(28,"
"Math.floor(560/Math.max(n,1)))),pad=40;let mx=0;"
"m.forEach(r=>r.forEach(v=>{if(v>mx)mx=v;}));"
"const s=el('svg',{width:pad+n*c+90,height:pad+n*c+10},"
"document.getElementById(id));"
"for(let i=0;i<n;i++){el('text',{x:pad-4,y:pad+i*c+c*0.7,'text-anchor':'end'},s)"
".textContent=i;el('text',{x:pad+i*c+c/2,y:pad-6,'text-anchor':'middle'},s)"
".textContent=i;for(let k=0;k<n;k++){const v=m[i][k],t=mx?Math.log1p(v)/"
"Math.log1p(mx):0;const r=el('rect',{x:pad+k*c,y:pad+i*c,width:c-1,"
"height:c-1,class:'cell','data-v':v,fill:v?'hsl('+(220-220*t)+',80%,'+"
"(85-45*t)+'%)':'#f4f4f4'},s);hover(r,'rank '+i+' \\u2192 rank '+k+': '+"
"v+' '+unit);}}"
"el('text',{x:pad+n*c+8,y:pad+10},s).textContent='max '+fmt(mx)+' '+unit;}\n"
"function bars(id,rows,label){const W=600,h=18;let mx=0;rows.forEach(r=>"
"{if(r.v>mx)mx=r.v;});const s=el('svg',{width:W+260,height:rows.length*h+10},"
"document.getElementById(id));rows.forEach((r,i)=>{el('text',{x:0,y:i*h+13},s)"
".textContent=r.name;const b=el('rect',{x:200,y:i*h+2,width:mx?Math.max(1,"
"W*r.v/mx):1,height:h-4,fill:'#4a7fc1',class:'bar'},s);hover(b,r.name+': '+"
"r.text);});}\n"
"heat('hm-bytes',D.bytes,'bytes');heat('hm-msgs',D.msgs,'messages');\n"
"{const rows=[];for(let r=0;r<D.ranks;r++){const parts=D.wait_calls.filter("
"w=>w.s[r]>0).map(w=>w.call+' '+w.s[r].toFixed(4)+' s');rows.push({name:"
"'rank '+r,v:D.wait_s[r],text:D.wait_s[r].toFixed(4)+' s ('+"
"(parts.join(', ')||'no wait')+')'});}bars('wait',rows);}\n"
"{const t=document.createElement('table');t.innerHTML='<tr><th>collective"
"</th><th>calls (all ranks)</th><th>bytes received</th><th>shm / no message"
"</th><th>algorithms (schedule runs)</th></tr>';D.collectives.forEach(c=>{"
"const sum=a=>a.reduce((x,y)=>x+y,0);const tr=t.insertRow();[c.name,sum("
"c.calls),fmt(sum(c.bytes)),sum(c.noschedule),c.algorithms.map(a=>a.name+"
"': '+a.runs).join(', ')].forEach(v=>{tr.insertCell().textContent=v;});"
"tr.title='calls per rank: '+c.calls.join(' ');});"
"document.getElementById('coll').appendChild(t);}\n"
"{const t=document.createElement('table');t.innerHTML='<tr><th>"
"communicator</th><th>size</th><th>messages sent</th><th>bytes sent</th>"
"<th>collective calls</th><th>collective bytes</th></tr>';"
"const sum=a=>a.reduce((x,y)=>x+y,0);(D.comms||[]).forEach(c=>{"
"const tr=t.insertRow();[c.name||('context '+c.ctx),c.size||'?',sum(c.msgs),"
"fmt(sum(c.bytes)),sum(c.coll_calls),fmt(sum(c.coll_bytes))].forEach(v=>{"
"tr.insertCell().textContent=v;});tr.className='comm';tr.title="
"'per rank: messages '+c.msgs.join(' ')+'; bytes '+c.bytes.join(' ')+"
"'; collective calls '+c.coll_calls.join(' ');});"
"document.getElementById('comms').appendChild(t);}\n"
"{const rows=[];D.size_hist.forEach((v,b)=>{if(v){const lo=b?Math.pow(2,b-1)"
":0,hi=b?Math.pow(2,b)-1:0;rows.push({name:fmt(lo)+'..'+fmt(hi)+' B',v:v,"
"text:v+' messages'});}});bars('hist',rows);}\n"
"{let m=0,b=0;D.msgs.forEach(r=>r.forEach(v=>m+=v));D.bytes.forEach(r=>"
"r.forEach(v=>b+=v));document.getElementById('summary').textContent="
"D.ranks+' ranks, '+m+' messages, '+fmt(b)+' bytes sent (point-to-point and"
" the messages of collectives). Hover a cell or bar for its numbers.';}\n"
"document.body.setAttribute('data-rendered','1');\n"
"</script>\n</body></html>\n";

int ucmpi_mpit_profile_html(const char *path, FILE *json)
{
    FILE *f = fopen(path, "w");
    int c, prev = 0;

    if (f == NULL)
        return -1;
    fputs(head, f);
    /* "</" could end the script element: written as "<\/" */
    while ((c = fgetc(json)) != EOF) {
        if (prev == '<' && c == '/')
            fputc('\\', f);
        fputc(c, f);
        prev = c;
    }
    fputs(tail, f);
    return fclose(f) == 0 ? 0 : -1;
}
